/* What gnuplot costs, apart from perfdelta: one gnuplot run (pd_plot_run, as the report
 * runs it) on K charts of 3 lines of P points, for a few (K, P), then the CPU time (user
 * + system, of gnuplot) of starting it, of each chart and of each point, from a least-
 * squares fit. The charts are perfdelta's own (pd_plot_script) over a sine.
 * usage: pd_bench_gnuplot DIR [REPS]   (DIR: made for the SVGs, removed after) */
#include "core/file.h"
#include "render/plot.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

static double children_cpu(void)
{
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* gnuplot's CPU seconds for k charts of 3 lines of p points, median of reps. */
static double run(const char *dir, int k, int p, int reps)
{
	double *t = malloc((size_t)p * sizeof(*t)), *v = malloc((size_t)p * sizeof(*v));
	double best[16];
	for (int i = 0; i < p; i++)
		t[i] = 5.0 * i, v[i] = 100 + 10 * sin(i / 20.0);
	for (int r = 0; r < reps; r++) {
		struct pd_plot_job job = PD_PLOT_JOB_INIT;
		struct pd_err err = PD_ERR_INIT;
		for (int c = 0; c < k; c++) {
			char file[32];
			snprintf(file, sizeof(file), "c%03d.svg", c);
			struct pd_plot_line l[3] = {{"baseline", t, v, (size_t)p, 0},
						    {"target", t, v, (size_t)p, 1},
						    {"removed", t, v, (size_t)p, 2}};
			struct pd_plot_chart ch = {.file = file,
						   .title = "metric",
						   .ylabel = "%",
						   .lines = l,
						   .n_lines = p ? 3 : 0,
						   .event_s = 300};
			pd_plot_script(&job, &ch, dir);
		}
		double before = children_cpu();
		if (pd_plot_run(&job, &err) < 0) {
			fprintf(stderr, "pd_bench_gnuplot: %s\n", err.msg);
			exit(1);
		}
		best[r] = children_cpu() - before;
	}
	for (int i = 1; i < reps; i++) /* insertion sort for the median */
		for (int j = i; j > 0 && best[j] < best[j - 1]; j--) {
			double x = best[j];
			best[j] = best[j - 1], best[j - 1] = x;
		}
	free(t);
	free(v);
	return best[reps / 2];
}

int main(int argc, char **argv)
{
	int reps = argc > 2 ? atoi(argv[2]) : 5;
	if (argc < 2 || reps < 1 || reps > 15) {
		fprintf(stderr, "usage: pd_bench_gnuplot DIR [REPS 1-15]\n");
		return 2;
	}
	if (mkdir(argv[1], 0700) < 0 && errno != EEXIST) {
		fprintf(stderr, "pd_bench_gnuplot: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	double one = run(argv[1], 1, 0, reps);     /* a start and one empty frame */
	double empty = run(argv[1], 70, 0, reps);  /* 70 empty frames */
	double full = run(argv[1], 70, 360, reps); /* 70 charts, 3 x 360 points */
	double per_chart = (empty - one) / 69;
	double per_point = (full - empty) / (70 * 3 * 360);
	printf("gnuplot CPU: start %.1f ms, per chart %.2f ms, per point %.2f us; "
	       "70 charts of 3 x 360 points %.1f ms (median of %d)\n",
	       (one - per_chart) * 1e3, per_chart * 1e3, per_point * 1e6, full * 1e3, reps);
	pd_rm_tree(argv[1]);
	return 0;
}
