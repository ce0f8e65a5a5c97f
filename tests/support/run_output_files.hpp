#pragma once
/// Runs with an output directory, and reading what they write, for the output tests.
#include <filesystem>
#include <string>
#include <vector>

#include <noether/apps/runner.hpp>

namespace noether::testing {

/// The options of a run of `scenario` on one thread writing into out.
inline RunOptions options_for(const std::string& scenario, const std::filesystem::path& out) {
  RunOptions options;
  options.scenario = scenario;
  options.output_dir = out;
  options.threads = 1;
  return options;
}

/// The values of every attribute `name="..."` in an XML text (a .pvd's file names, a .vtp's
/// array names), in order.
inline std::vector<std::string> attribute_values(const std::string& xml, const std::string& name) {
  std::vector<std::string> values;
  const std::string key = " " + name + "=\"";
  for (std::size_t at = xml.find(key); at != std::string::npos; at = xml.find(key, at + 1)) {
    const std::size_t begin = at + key.size();
    values.push_back(xml.substr(begin, xml.find('"', begin) - begin));
  }
  return values;
}

}  // namespace noether::testing
