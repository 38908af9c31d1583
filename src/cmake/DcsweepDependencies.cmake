# Every third-party dependency of dcsweep is found here, and only here, so that a later
# feature links an existing imported target instead of adding its own find logic.
# All of them are Debian packages (see .ci/setup for the list).
#
#   target                   package                          used by
#   MPI::MPI_CXX             libopenmpi-dev                   sweep (MPI ranks)
#   hdf5::hdf5, hdf5_hl      libhdf5-openmpi-dev (parallel)   sweep (result file, dimension scales)
#   Eigen3::Eigen            libeigen3-dev                    thermal (matrices)
#   dcsweep::cbc             coinor-libcbc-dev                power (PARM ILPs)
#   dcsweep::ipopt           coinor-libipopt-dev              ratebased ([P3]'s NLP)
#   Boost::program_options   libboost-program-options-dev     cli
#   Boost::headers           (the same package's headers)     analysis (Random's sobol engine, Math's erf)
#   GTest::gtest_main        libgtest-dev                     tests
#   tomlplusplus::tomlplusplus libtomlplusplus-dev            sweep (spec parser)
#   dcsweep::random123       librandom123-dev (headers)       core (RNG streams)
#   ZLIB::ZLIB               zlib1g-dev                       sweep (journal CRC-32)
#   dcsweep::deflate         libdeflate-dev                   workload (.swf.gz, inflated in one pass)

include_guard(GLOBAL)
find_package(PkgConfig REQUIRED)

find_package(ZLIB REQUIRED)
find_package(Boost 1.74 REQUIRED COMPONENTS program_options)
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(MPI REQUIRED COMPONENTS CXX)

set(HDF5_PREFER_PARALLEL TRUE)
find_package(HDF5 REQUIRED COMPONENTS C HL)
if(NOT HDF5_IS_PARALLEL)
  message(FATAL_ERROR "dcsweep needs parallel HDF5 (Debian: libhdf5-openmpi-dev); found a serial one")
endif()
if(NOT TARGET hdf5::hdf5)
  add_library(hdf5::hdf5 INTERFACE IMPORTED)
  target_include_directories(hdf5::hdf5 INTERFACE ${HDF5_INCLUDE_DIRS})
  target_link_libraries(hdf5::hdf5 INTERFACE ${HDF5_C_LIBRARIES})
  target_compile_definitions(hdf5::hdf5 INTERFACE ${HDF5_DEFINITIONS})
endif()
if(NOT TARGET hdf5::hdf5_hl)
  add_library(hdf5::hdf5_hl INTERFACE IMPORTED)
  target_link_libraries(hdf5::hdf5_hl INTERFACE ${HDF5_HL_LIBRARIES} hdf5::hdf5)
endif()
find_package(Threads REQUIRED)

find_package(tomlplusplus 3 QUIET CONFIG)
if(NOT TARGET tomlplusplus::tomlplusplus)
  pkg_check_modules(TOMLPP REQUIRED IMPORTED_TARGET tomlplusplus)
  add_library(tomlplusplus::tomlplusplus ALIAS PkgConfig::TOMLPP)
endif()

pkg_check_modules(LIBDEFLATE REQUIRED IMPORTED_TARGET libdeflate)
add_library(dcsweep::deflate ALIAS PkgConfig::LIBDEFLATE)

pkg_check_modules(CBC REQUIRED IMPORTED_TARGET cbc)
add_library(dcsweep::cbc ALIAS PkgConfig::CBC)

pkg_check_modules(IPOPT REQUIRED IMPORTED_TARGET ipopt)
add_library(dcsweep::ipopt ALIAS PkgConfig::IPOPT)

find_path(RANDOM123_INCLUDE_DIR Random123/philox.h REQUIRED)
add_library(dcsweep::random123 INTERFACE IMPORTED)
target_include_directories(dcsweep::random123 SYSTEM INTERFACE ${RANDOM123_INCLUDE_DIR})

if(DCSWEEP_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
