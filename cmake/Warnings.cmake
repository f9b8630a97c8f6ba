# The project's warnings. They are errors where the project builds itself (scripts/build.sh
# and CI set YARD_WERROR=ON); a packager's plain cmake leaves them warnings, so that a
# newer compiler's new warning never breaks someone's install.
option(YARD_WERROR "Treat warnings as errors" OFF)
add_compile_options(-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
                    -Wnon-virtual-dtor -Wold-style-cast -Woverloaded-virtual)
if(YARD_WERROR)
  add_compile_options(-Werror)
endif()
# gcc 12 at -O3 reports an overlapping copy in std::string's operator+(const char*,
# std::string&&) that cannot happen (GCC bug 105329, fixed in gcc 13): every
# "text" + std::string(...) in a Release build. Only that compiler at -O3 loses the warning.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  add_compile_options($<$<CONFIG:Release>:-Wno-restrict>)
endif()
