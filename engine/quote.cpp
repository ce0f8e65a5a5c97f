#include <noether/engine/quote.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <utility>

namespace noether {
namespace {

/// The Unicode format characters (general category Cf, Unicode 15) and the line and paragraph
/// separators, as closed ranges in increasing order.
constexpr std::array<std::pair<char32_t, char32_t>, 21> kFormatCharacters{{
    {0x00AD, 0x00AD},   {0x0600, 0x0605},   {0x061C, 0x061C},   {0x06DD, 0x06DD},   {0x070F, 0x070F},
    {0x0890, 0x0891},   {0x08E2, 0x08E2},   {0x180E, 0x180E},   {0x200B, 0x200F},   {0x2028, 0x202E},
    {0x2060, 0x2064},   {0x2066, 0x206F},   {0xFEFF, 0xFEFF},   {0xFFF9, 0xFFFB},   {0x110BD, 0x110BD},
    {0x110CD, 0x110CD}, {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0001, 0xE0001},
    {0xE0020, 0xE007F},
}};

bool is_hidden(char32_t c) {
  if (c < 0x20 || (c >= 0x7F && c <= 0x9F)) return true;
  return std::any_of(kFormatCharacters.begin(), kFormatCharacters.end(),
                     [c](const auto& range) { return c >= range.first && c <= range.second; });
}

/// One character of UTF-8 at text[at]: its code point and its length in bytes; length 0 for a
/// byte that starts no well-formed character (a stray continuation byte, a truncated or overlong
/// sequence, a surrogate, a code point above U+10FFFF).
struct Decoded {
  char32_t code = 0;
  std::size_t length = 0;
};

Decoded decode(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(text[i]); };
  const std::uint8_t lead = byte(at);
  if (lead < 0x80) return {lead, 1};
  const std::size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
  if (length == 0 || lead > 0xF4 || at + length > text.size()) return {};
  char32_t code = lead & (0x7F >> length);
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(at + i) & 0xC0) != 0x80) return {};
    code = (code << 6) | (byte(at + i) & 0x3F);
  }
  constexpr std::array<char32_t, 5> kSmallest{0, 0, 0x80, 0x800, 0x10000};
  if (code < kSmallest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return {};
  return {code, length};
}

/// The escape of a hidden character, or of a byte that is not UTF-8 (decoded.length 0).
std::string escape(Decoded decoded, std::uint8_t byte) {
  std::array<char, 16> buffer{};
  if (decoded.length == 0) {
    std::snprintf(buffer.data(), buffer.size(), "\\x%02x", byte);
    return buffer.data();
  }
  switch (decoded.code) {
    case '\b': return "\\b";
    case '\f': return "\\f";
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    default: break;
  }
  if (decoded.code < 0x10000) {
    std::snprintf(buffer.data(), buffer.size(), "\\u%04x", static_cast<unsigned>(decoded.code));
    return buffer.data();
  }
  const char32_t above = decoded.code - 0x10000;  // a surrogate pair, as JSON writes it
  std::snprintf(buffer.data(), buffer.size(), "\\u%04x\\u%04x", static_cast<unsigned>(0xD800 + (above >> 10)),
                static_cast<unsigned>(0xDC00 + (above & 0x3FF)));
  return buffer.data();
}

/// Calls visit(position, decoded) for each character of text (a byte that is not UTF-8 counts as
/// one, with length 0); stops when visit returns false.
template <class Visit>
void each_character(std::string_view text, Visit visit) {
  for (std::size_t at = 0; at < text.size();) {
    const Decoded decoded = decode(text, at);
    if (!visit(at, decoded)) return;
    at += std::max<std::size_t>(decoded.length, 1);
  }
}

/// Whether text is printable ASCII only, which needs no escape (the common case, checked first).
bool plain_ascii(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c < 0x7F; });
}

}  // namespace

std::string escaped(std::string_view text) {
  if (plain_ascii(text)) return std::string(text);
  std::string out;
  out.reserve(text.size());
  each_character(text, [&](std::size_t at, Decoded decoded) {
    if (decoded.length == 0 || is_hidden(decoded.code)) out += escape(decoded, static_cast<std::uint8_t>(text[at]));
    else out.append(text.substr(at, decoded.length));
    return true;
  });
  return out;
}

std::string quote(std::string_view text) {
  std::string out = "'";
  out += escaped(text);
  out += '\'';
  return out;
}

std::string hidden_character(std::string_view text) {
  std::string found;
  if (plain_ascii(text)) return found;
  each_character(text, [&](std::size_t at, Decoded decoded) {
    if (decoded.length != 0 && !is_hidden(decoded.code)) return true;
    found = escape(decoded, static_cast<std::uint8_t>(text[at]));
    return false;
  });
  return found;
}

}  // namespace noether
