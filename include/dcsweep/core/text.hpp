#pragma once
// Small text helpers shared by the parsers and the CLI.
#include <span>
#include <string>
#include <string_view>

namespace dcsweep {

/// Levenshtein distance between two strings.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate closest to `name`, or "" when none is plausibly a typo of it.
std::string closest_name(std::string_view name, std::span<const std::string> candidates);

/// `text` without leading and trailing spaces, tabs and carriage returns (a CRLF file's lines).
std::string_view trim_blanks(std::string_view text);

/// "a, b, c".
std::string join(std::span<const std::string> items, std::string_view separator = ", ");

/// Shortest text that reads back as the same double ("0.1", "1e+30", "nan", "inf").
std::string format_number(double value);

/// The current time in UTC, ISO 8601 to the second ("2026-11-22T23:50:02Z").
std::string utc_now();

/// A whole file's bytes; InputError "PATH: cannot open WHAT" (WHAT may be empty).
std::string read_text_file(const std::string& path, std::string_view what = {});

}  // namespace dcsweep
