#include <iostream>
#include <string>
#include <vector>

#include "dcsweep/cli/cli.hpp"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  const std::vector<std::string> args(argv + 1, argv + argc);
  return dcsweep::run_cli(args, std::cout, std::cerr);
}
