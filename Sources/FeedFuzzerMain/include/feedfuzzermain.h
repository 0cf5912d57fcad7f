// main() for the libFuzzer target (see driver.c).
#ifndef FEEDFUZZERMAIN_H
#define FEEDFUZZERMAIN_H
int FeedFuzzer_main(int argc, char **argv);
#endif
