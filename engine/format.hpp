#pragma once
/// Numbers in error messages, written as people type them, and the rule that refuses a subnormal one.
#include <string>

namespace noether {

/// value as operator<< prints it, six significant digits: "2.5", "-1", "1e-09", "nan", "inf"
/// (std::to_string would print 1e-09 as "0.000000").
std::string format_number(double value);

/// The shortest text that reads back as value (std::to_chars): "0.1" (not "0.10000000000000001"),
/// "2.2250738585072014e-308", "1e-320" (format_number gives "9.99989e-321"), "nan", "inf".
std::string format_exact(double value);

/// Whether value is subnormal: nonzero with |value| below std::numeric_limits<double>::min() =
/// 2.2250738585072014e-308. Such a magnitude (a mass, inertia, length, stiffness, tolerance) keeps
/// few significant digits, and the products and inverses the equations take of it underflow or
/// overflow; the elements, scene files and run settings refuse it with subnormal_refusal.
bool is_subnormal(double value);

/// The one wording of that refusal, after the name of the value: "must be a normal number, at least
/// 2.2250738585072014e-308 (or 0), got 1e-320 (a subnormal value keeps too few digits for the
/// equations)"; "(or 0)" where 0 is accepted, "in magnitude" for a negative value.
std::string subnormal_refusal(double value, bool zero_accepted);

}  // namespace noether
