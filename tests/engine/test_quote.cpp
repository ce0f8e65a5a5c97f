/// quote() (engine/quote.hpp): the one way messages quote a name or a given text, so that no text
/// ends a message early, reaches the terminal as a control sequence, or hides.
#include <string>

#include <doctest/doctest.h>

#include <noether/engine/quote.hpp>

using namespace noether;

TEST_CASE("quote keeps printable text and writes every hidden character as an escape") {
  CHECK(quote("bar") == "'bar'");
  CHECK(quote("ü bar [1], \"x\" \\ y") == "'ü bar [1], \"x\" \\ y'");  // UTF-8, quotes and backslashes stay
  CHECK(quote("😀") == "'😀'");                                       // beyond the BMP, printable
  CHECK(quote("") == "''");
  // Issue 40: a NUL ended the message (what() is a C string), ESC reached the terminal.
  CHECK(quote(std::string("a\0b", 3)) == "'a\\u0000b'");
  CHECK(quote("a\x1b[2Jb") == "'a\\u001b[2Jb'");
  CHECK(quote("a\nb\tc\rd\be\ff") == "'a\\nb\\tc\\rd\\be\\ff'");
  CHECK(quote("\x7f") == "'\\u007f'");
  CHECK(quote("a\u0085b\u009b") == "'a\\u0085b\\u009b'");                 // C1 controls: NEL, CSI
  CHECK(quote("\u202e\u200b\u00ad\ufeff\u2028") == "'\\u202e\\u200b\\u00ad\\ufeff\\u2028'");  // format, separators
  CHECK(quote("\U000E0001") == "'\\udb40\\udc01'");  // a format character beyond the BMP, as a surrogate pair
  // Bytes that are not UTF-8: a stray continuation byte, an overlong '/', a truncated sequence, a surrogate.
  CHECK(quote("a\xff" "b") == "'a\\xffb'");
  CHECK(quote("\x80") == "'\\x80'");
  CHECK(quote("\xc0\xaf") == "'\\xc0\\xaf'");
  CHECK(quote("\xe2\x82") == "'\\xe2\\x82'");
  CHECK(quote("\xed\xa0\x80") == "'\\xed\\xa0\\x80'");
  CHECK(escaped("a\x1b" "b") == "a\\u001bb");
}

TEST_CASE("hidden_character names the first hidden character of a text, or nothing") {
  CHECK(hidden_character("ü bar, \"x\"") == "");
  CHECK(hidden_character("a\u0085b\n") == "\\u0085");
  CHECK(hidden_character(std::string("\0", 1)) == "\\u0000");
  CHECK(hidden_character("x\xfe") == "\\xfe");
  CHECK(hidden_character("\u2066") == "\\u2066");
}
