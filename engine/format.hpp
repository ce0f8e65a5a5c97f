#pragma once
/// Numbers in error messages, written as people type them, and the rules that refuse a subnormal one
/// and one beyond the range the equations can square.
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

/// The largest magnitude of a mass, moment of inertia or iterate the equations take: 1e150, below
/// sqrt(DBL_MAX) = 1.3e154, so that the squares and products they form of it (a kinetic energy
/// v.M v, a momentum M v, a weight m g, |x|^2) stay finite for values of ordinary size beside it.
constexpr double kLargestMagnitude = 1e150;

/// Whether |value| is kLargestMagnitude or more (or not a number).
bool beyond_double_range(double value);

/// The one wording of what such a value is: "beyond the range of double precision (the squares of
/// such values overflow)"; Newton failures at such an iterate and the refusals below use it.
std::string beyond_range_text();

/// The refusal of such a value, after the name of the value: "must be below 1e+150 in magnitude,
/// got 1e+308: beyond the range of double precision (the squares of such values overflow)".
std::string overflow_refusal(double value);

}  // namespace noether
