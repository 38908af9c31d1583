#include "dcsweep/core/error.hpp"
// The error types are header-only; this unit anchors the core library's object list.
