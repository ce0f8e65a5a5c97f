#pragma once
/// Names and other given texts in messages: every message that quotes a name, a key or a value
/// someone typed quotes it with quote(), so that no text can end a message early (a NUL ends the
/// C string what() returns), move the cursor or recolour a terminal (an ESC sequence, a C1
/// control such as U+009B), reverse the text around it (U+202E) or hide (U+200B).
#include <string>
#include <string_view>

namespace noether {

/// text in single quotes, each hidden character (hidden_character) written as an escape in JSON's
/// notation, which a scene file takes back: "'bar'", "'a\nb'", "'a\u001b[31m'", "'a\u0085'",
/// "'\u202e'"; a byte that is not UTF-8 as "\xff". Other text is kept as it is ("'ü bar'").
std::string quote(std::string_view text);

/// text as quote() writes it, without the quotes: for a JSON path or a column label inside a message.
std::string escaped(std::string_view text);

/// The first hidden character of text, as escaped() writes it ("\u0085", "\t", "\xff"); empty when
/// text has none. Hidden: the control characters (U+0000 to U+001F, U+007F to U+009F: newline,
/// tab, ESC, the C1 controls), the Unicode format characters (category Cf: soft hyphen, zero-width
/// and bidirectional marks, the byte order mark, ...), the line and paragraph separators (U+2028,
/// U+2029), and a byte that does not belong to a UTF-8 character.
std::string hidden_character(std::string_view text);

}  // namespace noether
