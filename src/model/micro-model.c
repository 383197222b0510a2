/*
 * Which golden model runs a micro level (micro-sim.h): the one place
 * that names both models, above them, so that what they share
 * (micro-sim.c) and the models themselves (mic1.c, pmic-sim.c) do not
 * call each other in a circle.
 */
#include "micro-sim.h"

const struct micro_model *
micro_model_of(enum level level)
{
	switch (level) {
	case LEVEL_MIC:
		return &mic1_model;
	case LEVEL_PMIC:
		return &pmic_model;
	case LEVEL_ISA:
		break;
	}
	return NULL;
}
