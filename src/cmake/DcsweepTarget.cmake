# dcsweep_library(NAME SOURCES ... DEPS ...): one domain library target with the project's
# compile settings (C++20, warnings, optional -Werror and sanitizers).
include_guard(GLOBAL)

add_library(dcsweep_settings INTERFACE)
target_compile_features(dcsweep_settings INTERFACE cxx_std_20)
# -Wno-missing-field-initializers: parameter declarations use designated initializers and
# deliberately leave defaulted members out.
target_compile_options(dcsweep_settings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                       -Wno-sign-conversion
                       -Wno-missing-field-initializers $<$<BOOL:${DCSWEEP_WERROR}>:-Werror>)
# -march=native: the thermal model's dense linear algebra (Eigen) is 3x faster with AVX2/FMA.
# Build on (or for) the nodes that run it; -DDCSWEEP_NATIVE=OFF for a portable x86-64 binary.
# -ffp-contract=off keeps results bit-identical whatever instructions are chosen.
if(DCSWEEP_NATIVE)
  target_compile_options(dcsweep_settings INTERFACE -march=native)
  # GCC 12 warns falsely inside its own AVX-512 intrinsics when Eigen's reductions are inlined.
  target_compile_options(dcsweep_settings INTERFACE $<$<CXX_COMPILER_ID:GNU>:-Wno-maybe-uninitialized>)
endif()
target_compile_options(dcsweep_settings INTERFACE -ffp-contract=off)
if(DCSWEEP_SANITIZE)
  target_compile_options(dcsweep_settings INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer)
  target_link_options(dcsweep_settings INTERFACE -fsanitize=address,undefined)
endif()

if(DCSWEEP_FUZZ)  # linked with ASan and UBSan; tests/fuzz/CMakeLists.txt instruments the sources fuzzing reaches
  target_link_options(dcsweep_settings INTERFACE -fsanitize=address,undefined)
endif()

function(dcsweep_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(dcsweep_${name} STATIC ${ARG_SOURCES})
  add_library(dcsweep::${name} ALIAS dcsweep_${name})
  target_include_directories(dcsweep_${name} PUBLIC ${PROJECT_SOURCE_DIR}/include)
  target_link_libraries(dcsweep_${name} PUBLIC ${ARG_DEPS} PRIVATE dcsweep_settings)
endfunction()
