"""Build the Cython extension ``sevenw_core._core`` (C, no Python objects in the hot loop)."""

from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    ext_modules=cythonize(
        [Extension("sevenw_core._core", ["sevenw_core/_core.pyx"], extra_compile_args=["-O2", "-ffp-contract=off"])],
        compiler_directives={"language_level": 3},
    )
)
