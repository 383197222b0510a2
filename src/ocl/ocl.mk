# OpenCL engine build rules (filled in by the OpenCL engine work).
