#pragma once
/// Numbers in error messages, written as people type them.
#include <string>

namespace noether {

/// value as operator<< prints it, six significant digits: "2.5", "-1", "1e-09", "nan", "inf"
/// (std::to_string would print 1e-09 as "0.000000").
std::string format_number(double value);

}  // namespace noether
