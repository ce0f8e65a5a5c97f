#pragma once
/// The gnuplot script of `noether plot` (docs/cli.md, "noether plot").
#include <string>
#include <string_view>

#include <noether/apps/plot_data.hpp>

namespace noether {

/// text as a gnuplot string literal: in single quotes, a quote doubled, control characters
/// (a newline would end the command) replaced by spaces. Nothing in it is interpreted: the
/// terminals are set noenhanced.
std::string gnuplot_quoted(std::string_view text);

/// The script that draws each of data's figures into <name>.svg.tmp (SVG) and <name>.png.tmp
/// (PNG, cairo) in gnuplot's working directory, from `data_file` there (plot_data_text); each
/// figure's title starts with `heading` (the run's scenario, stepper and status). File names are
/// the fixed names of the figures; no text from the run reaches the script unquoted.
std::string gnuplot_script(const PlotData& data, std::string_view data_file, std::string_view heading);

}  // namespace noether
