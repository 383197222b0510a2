# Build rules of the PMIC level (pmic.md): compiler, golden-model
# simulator, its engine, pmic-cc and the project's PMIC microprogram,
# included from Makefile.am.
