#pragma once
// What every fuzz target checks: the input is accepted, or refused with one printable line.
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string_view>

#include "dcsweep/core/error.hpp"

namespace dcsweep::fuzz {

template <class Parse>
void accept_or_refuse(Parse&& parse) {
  try {
    parse();
  } catch (const InputError& e) {
    const std::string_view message = e.what();
    for (const char c : message) {
      const auto b = static_cast<unsigned char>(c);
      if (b < 0x20 || b >= 0x7f) std::abort();  // one printable line, whatever the bytes
    }
    if (message.empty() || message.size() > 4096) std::abort();
  }
}

}  // namespace dcsweep::fuzz
