#pragma once
// A plug-in family: named implementations of one interface, each with its help text, its own
// parameter declarations and a factory. Entries are listed beside their implementations and
// collected into one immutable registry per family; an unknown name fails with the valid ones.
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dcsweep/core/error.hpp"
#include "dcsweep/core/params.hpp"
#include "dcsweep/core/rng.hpp"
#include "dcsweep/core/text.hpp"

namespace dcsweep {

/// What every factory receives: the simulation's parameter values and its random-stream key.
struct BuildContext {
  const ParamSet& params;
  StreamKey key;
};

template <class Product, class... Args>
struct Plugin {
  std::string name;
  std::string help;
  std::vector<ParamSpec> params;  ///< parameters this plug-in reads (besides the common ones)
  std::function<std::unique_ptr<Product>(const BuildContext&, Args...)> make;
};

template <class Product, class... Args>
class Registry {
 public:
  using Entry = Plugin<Product, Args...>;

  Registry(std::string family, std::vector<Entry> entries)
      : family_(std::move(family)), entries_(std::move(entries)) {}

  const std::string& family() const { return family_; }
  std::span<const Entry> entries() const { return entries_; }

  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& entry : entries_) out.push_back(entry.name);
    return out;
  }

  const Entry& at(std::string_view name) const {
    for (const auto& entry : entries_) {
      if (entry.name == name) return entry;
    }
    const auto valid = names();
    std::string message = "unknown " + family_ + " '" + std::string(name) + "'";
    const std::string hint = closest_name(name, valid);
    if (!hint.empty()) message += " (did you mean '" + hint + "'?)";
    throw InputError(message + "; valid: " + join(valid));
  }

 private:
  std::string family_;
  std::vector<Entry> entries_;
};

}  // namespace dcsweep
