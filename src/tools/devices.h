/*
 * `micdb devices` (devices.c): list the OpenCL devices.
 */
#ifndef MICDB_DEVICES_H
#define MICDB_DEVICES_H

/* argv[0] is "devices"; --help prints usage.  Lists every device and
 * marks the default; returns the exit status (2: no OpenCL). */
int	 devices_main(int argc, char **argv);

#endif
