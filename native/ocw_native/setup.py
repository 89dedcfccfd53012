"""Build the Cython extension (the rest of the metadata is in pyproject.toml)."""

from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    ext_modules=cythonize(
        [
            Extension(
                "agon_ocw_native._core",
                ["src/agon_ocw_native/_core.pyx"],
                extra_compile_args=["-O2"],
            )
        ],
        language_level=3,
    )
)
