/* A minimal UEI bot in C: it asks the referee for its legal decisions (`request legal`) and plays
 * one of them at random, so it knows no rule of any edition.
 *
 *     cc -O2 -o minimal_bot docs/examples/minimal_bot.c
 *     expeditions protocol-check -- ./minimal_bot
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_WORDS 4096

static void say(const char *line) {
    fputs(line, stdout);
    fputc('\n', stdout);
    fflush(stdout);
}

/* Splits `line` in place into at most MAX_WORDS words; returns how many. */
static int split(char *line, char **words) {
    int n = 0;
    for (char *w = strtok(line, " \t\r\n"); w != NULL && n < MAX_WORDS; w = strtok(NULL, " \t\r\n"))
        words[n++] = w;
    return n;
}

int main(void) {
    static char *words[MAX_WORDS];
    char *line = NULL, pending[300] = "";  /* pending: the answer of a `go infinite`, given at `stop` */
    size_t size = 0;
    srand((unsigned)time(NULL));
    while (getline(&line, &size, stdin) != -1) {
        int n = split(line, words);
        if (n == 0)
            continue;
        const char *cmd = words[0];
        if (strcmp(cmd, "uei") == 0) {
            say("id name minimal-c");
            say("id author expeditions");
            say("id protocol 2");
            say("request legal");
            say("editions classic partners expedition board eldorado");
            say("ueiok");
        } else if (strcmp(cmd, "isready") == 0) {
            say("readyok");
        } else if (strcmp(cmd, "newgame") == 0 || strcmp(cmd, "position") == 0 || strcmp(cmd, "gameover") == 0) {
            /* the legal decisions come with each go: nothing to remember */
        } else if (strcmp(cmd, "go") == 0) {
            int at = 1, infinite = 0;
            while (at < n && strcmp(words[at], "legal") != 0) {
                infinite |= strcmp(words[at], "infinite") == 0;
                at++;
            }
            if (at >= n - 1) {
                say("info string error go: no legal decisions given (is the seat to move?)");
                continue;
            }
            const char *choice = words[at + 1 + rand() % (n - at - 1)];
            char answer[300];
            snprintf(answer, sizeof answer, "bestmove %s", choice);
            if (infinite)
                snprintf(pending, sizeof pending, "%s", answer);
            else
                say(answer);
        } else if (strcmp(cmd, "stop") == 0) {
            if (pending[0] != '\0') {
                say(pending);
                pending[0] = '\0';
            }
        } else if (strcmp(cmd, "quit") == 0) {
            break;
        } else if (strcmp(cmd, "setoption") == 0) {
            say("info string error setoption: this bot has no options");
        } else {
            char error[128];
            snprintf(error, sizeof error, "info string error unknown command %.60s", cmd);
            say(error);
        }
    }
    free(line);
    return 0;
}
