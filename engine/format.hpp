#pragma once
/// Numbers in error messages, written as people type them.
#include <string>

namespace noether {

/// value as operator<< prints it, six significant digits: "2.5", "-1", "1e-09", "nan", "inf"
/// (std::to_string would print 1e-09 as "0.000000").
std::string format_number(double value);

/// The shortest text that reads back as value (std::to_chars): "0.1" (not "0.10000000000000001"),
/// "2.2250738585072014e-308", "1e-320" (format_number gives "9.99989e-321"), "nan", "inf".
std::string format_exact(double value);

}  // namespace noether
