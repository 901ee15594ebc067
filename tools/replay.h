/*
 * replay: `irqsim replay TRACE...`: each interrupt entry captured on a
 * running seL4 system goes through the model's interrupt path from the
 * captured entry state, and the predicted exit is compared field by field
 * with the exit state the real kernel returned to user level with.
 */
#ifndef IRQSIM_REPLAY_H
#define IRQSIM_REPLAY_H

/* argv[0] is "replay"; returns the process exit status. */
int replay_main(int argc, char **argv);

#endif
