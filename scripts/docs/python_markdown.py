#!/usr/bin/env python3
"""The Python module's reference in Markdown, from its docstrings and signatures (the
module of this build: its folder first on sys.path).

Usage: python_markdown.py BUILD_PYTHON_DIR > python-api.md
"""

import inspect
import sys


def doc(obj):
    return inspect.cleandoc(inspect.getdoc(obj) or "(undocumented)")


def signature(name, obj):
    try:
        return name + str(inspect.signature(obj))
    except (TypeError, ValueError):
        return name


def block(text):
    """A docstring as the reader of help() sees it: verbatim."""
    return "```text\n" + text + "\n```\n"


def main():
    sys.path.insert(0, sys.argv[1])
    import switchyard
    submodules = []
    try:
        import switchyard.submitit as submitit_module
        submodules.append(("switchyard.submitit", submitit_module))
    except ImportError:
        pass
    print("# Python API\n")
    print("Generated from the docstrings of the `switchyard` module of this build "
          "(`help(switchyard)` shows the same). The guide is the [Python page](../PYTHON.md).\n")
    print(block(doc(switchyard)))
    names = getattr(switchyard, "__all__", [n for n in dir(switchyard) if not n.startswith("_")])
    errors = [n for n in names if inspect.isclass(getattr(switchyard, n))
              and issubclass(getattr(switchyard, n), BaseException)]
    for n in names:
        if n in errors:
            continue
        obj = getattr(switchyard, n)
        print("## `switchyard.%s`\n" % n)
        print("```python\n%s\n```\n" % signature(n, obj))
        print(block(doc(obj)))
        if inspect.isclass(obj):
            for m, member in inspect.getmembers(obj):
                if m.startswith("_") and m != "__init__":
                    continue
                if m == "__init__" or not (inspect.isfunction(member) or isinstance(member, property)):
                    continue
                if m not in obj.__dict__:
                    continue  # inherited (concurrent.futures.Future's are documented there)
                if isinstance(member, property):
                    print("### `%s.%s` (property)\n" % (n, m))
                else:
                    print("### `%s.%s`\n" % (n, m))
                    print("```python\n%s\n```\n" % signature(m, member))
                print(block(doc(member)))
    print("## Errors\n")
    print("| exception | base | meaning |\n|---|---|---|")
    for n in errors:
        e = getattr(switchyard, n)
        first = doc(e).split("\n")[0].replace("|", "\\|")
        print("| `%s` | `%s` | %s |" % (n, e.__mro__[1].__name__, first))
    print()
    for title, module in submodules:
        print("## `%s`\n" % title)
        print(block(doc(module)))
        for n in getattr(module, "__all__", [x for x in dir(module) if not x.startswith("_")]):
            obj = getattr(module, n)
            if inspect.ismodule(obj) or getattr(obj, "__module__", "") != module.__name__:
                continue
            print("### `%s.%s`\n" % (title, n))
            print("```python\n%s\n```\n" % signature(n, obj))
            print(block(doc(obj)))


if __name__ == "__main__":
    main()
