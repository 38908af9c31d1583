#pragma once
// The registry entry of a nearest allocator (mc1x1, mm, genalg share everything but the kind).
#include <string>

#include "dcsweep/alloc/allocator.hpp"
#include "dcsweep/alloc/nearest.hpp"

namespace dcsweep {

/// An entry whose factory checks the platform's network (InputError naming the allocator) and
/// builds an Allocator around one NearestSearch.
AllocatorRegistry::Entry nearest_allocator_entry(NearestKind kind, std::string help);

}  // namespace dcsweep
