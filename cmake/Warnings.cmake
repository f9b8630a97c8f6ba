# The project's warnings. They are errors where the project builds itself (scripts/build.sh
# and CI set YARD_WERROR=ON); a packager's plain cmake leaves them warnings, so that a
# newer compiler's new warning never breaks someone's install.
option(YARD_WERROR "Treat warnings as errors" OFF)
add_compile_options(-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
                    -Wnon-virtual-dtor -Wold-style-cast -Woverloaded-virtual)
if(YARD_WERROR)
  add_compile_options(-Werror)
endif()
