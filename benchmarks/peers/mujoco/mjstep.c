/* Time MuJoCo's mj_step for solo12 standing on its four feet (model from urdf2mjcf.py).
 *
 * Usage: mjstep MODEL.xml [batches=20] [segments=20] [steps=1000]
 *
 * For each variant (Newton, Newton + elliptic cone, PGS, CG, contact disabled): start from the keyframe "stand",
 * settle SETTLE steps (10 s; the servos have no damping and the sag oscillation decays slowly: max|qvel| is
 * 2e-2 after 2 s, 1e-8 after 10 s) with the variant's options, save that state. Then, interleaved across variants, each
 * batch runs `segments` segments of `steps` steps; before each segment the variant's settled state (qpos, qvel,
 * act, ctrl, qacc_warmstart, time) is restored (not timed), so the robot keeps standing and the contact-disabled
 * variant (which falls) is always timed over its first `steps` steps of fall from the standing state.
 * Per batch: total step time / steps; prints median, p10, p90 over batches in µs per step.
 */
#include <mujoco/mujoco.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NV_MAX 5
#define SETTLE 10000
static const char *NAMES[NV_MAX] = {"Newton (pyramidal, default)", "Newton, elliptic cone", "PGS (pyramidal)",
                                    "CG (pyramidal)", "contact disabled (Newton)"};

typedef struct {
  mjtNum *qpos, *qvel, *act, *ctrl, *warm;
  mjtNum time;
} State;

static void save(const mjModel *m, const mjData *d, State *s) {
  s->qpos = malloc(sizeof(mjtNum) * m->nq);
  s->qvel = malloc(sizeof(mjtNum) * m->nv);
  s->act = malloc(sizeof(mjtNum) * (m->na ? m->na : 1));
  s->ctrl = malloc(sizeof(mjtNum) * m->nu);
  s->warm = malloc(sizeof(mjtNum) * m->nv);
  memcpy(s->qpos, d->qpos, sizeof(mjtNum) * m->nq);
  memcpy(s->qvel, d->qvel, sizeof(mjtNum) * m->nv);
  memcpy(s->act, d->act, sizeof(mjtNum) * m->na);
  memcpy(s->ctrl, d->ctrl, sizeof(mjtNum) * m->nu);
  memcpy(s->warm, d->qacc_warmstart, sizeof(mjtNum) * m->nv);
  s->time = d->time;
}

static void restore(const mjModel *m, mjData *d, const State *s) {
  memcpy(d->qpos, s->qpos, sizeof(mjtNum) * m->nq);
  memcpy(d->qvel, s->qvel, sizeof(mjtNum) * m->nv);
  memcpy(d->act, s->act, sizeof(mjtNum) * m->na);
  memcpy(d->ctrl, s->ctrl, sizeof(mjtNum) * m->nu);
  memcpy(d->qacc_warmstart, s->warm, sizeof(mjtNum) * m->nv);
  d->time = s->time;
}

static void set_variant(mjModel *m, int v) {
  m->opt.solver = mjSOL_NEWTON;
  m->opt.cone = mjCONE_PYRAMIDAL;
  m->opt.disableflags &= ~mjDSBL_CONTACT;
  if (v == 1) m->opt.cone = mjCONE_ELLIPTIC;
  if (v == 2) m->opt.solver = mjSOL_PGS;
  if (v == 3) m->opt.solver = mjSOL_CG;
  if (v == 4) m->opt.disableflags |= mjDSBL_CONTACT;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* this thread's CPU time: excludes time the thread was descheduled (a check on a busy machine) */
static double cpu(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void stats(double *x, int n, double *med, double *p10, double *p90) {
  qsort(x, n, sizeof(double), cmp);
  *med = n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
  *p10 = x[(int)(0.1 * (n - 1) + 0.5)];
  *p90 = x[(int)(0.9 * (n - 1) + 0.5)];
}


/* contacts, base height, sum of normal forces, deepest penetration */
static void report(const mjModel *m, mjData *d, const char *what) {
  mjtNum fz = 0, depth = 0, f[6];
  for (int i = 0; i < d->ncon; i++) {
    mj_contactForce(m, d, i, f);
    fz += f[0] * d->contact[i].frame[2]; /* normal force, projected on world z */
    if (-d->contact[i].dist > depth) depth = -d->contact[i].dist;
  }
  mjtNum vmax = 0;
  for (int k = 0; k < m->nv; k++) vmax = mju_max(vmax, mju_abs(d->qvel[k]));
  printf("  %-20s t=%.3f s  ncon=%d  base z=%.5f m  sum Fn=%.4f N (m g=%.4f)  max penetration=%.2f mm"
         "  solver iters=%d  max|qvel|=%.1e\n",
         what, d->time, d->ncon, d->qpos[2], fz, mj_getTotalmass(m) * -m->opt.gravity[2], 1e3 * depth,
         d->solver_iter, vmax);
  if (d->ncon) {
    printf("  %-20s per-contact normal force:", "");
    for (int i = 0; i < d->ncon; i++) {
      mj_contactForce(m, d, i, f);
      printf(" %s %.3f N", mj_id2name(m, mjOBJ_GEOM, d->contact[i].geom2), f[0]);
    }
    printf("\n");
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s MODEL.xml [batches] [segments] [steps]\n", argv[0]);
    return 2;
  }
  int batches = argc > 2 ? atoi(argv[2]) : 20;
  int segments = argc > 3 ? atoi(argv[3]) : 20;
  int steps = argc > 4 ? atoi(argv[4]) : 1000;
  char err[1000] = "";
  mjModel *m = mj_loadXML(argv[1], NULL, err, sizeof err);
  if (!m) {
    fprintf(stderr, "load error: %s\n", err);
    return 1;
  }
  if (err[0]) fprintf(stderr, "load warning: %s\n", err);
  mjData *d = mj_makeData(m);
  int key = mj_name2id(m, mjOBJ_KEY, "stand");
  if (key < 0) {
    fprintf(stderr, "no keyframe 'stand'\n");
    return 1;
  }
  printf("MuJoCo %s, model %s: nq=%d nv=%d nu=%d nbody=%d ngeom=%d, timestep %g s, total mass %.8f kg\n",
         mj_versionString(), argv[1], m->nq, m->nv, m->nu, m->nbody, m->ngeom, m->opt.timestep, mj_getTotalmass(m));

  /* check the keyframe's base height: foot spheres just touching z = 0 */
  mj_resetDataKeyframe(m, d, key);
  mj_kinematics(m, d);
  mjtNum lowest = 1e9;
  for (int g = 0; g < m->ngeom; g++)
    if (m->geom_type[g] == mjGEOM_SPHERE) {
      mjtNum b = d->geom_xpos[3 * g + 2] - m->geom_size[3 * g];
      printf("  foot %-16s sphere bottom z at the keyframe = %+.2e m\n", mj_id2name(m, mjOBJ_GEOM, g), b);
      if (b < lowest) lowest = b;
    }
  printf("  keyframe base z = %.6f m\n", d->qpos[2]);

  State settled[NV_MAX];
  for (int v = 0; v < NV_MAX; v++) {
    set_variant(m, v);
    mj_resetDataKeyframe(m, d, key);
    printf("%s:\n", NAMES[v]);
    if (v == 4) { /* contact disabled: time it from the standing (Newton-settled) state */
      restore(m, d, &settled[0]);
      mj_forward(m, d);
      save(m, d, &settled[v]);
      printf("  timed from the standing state of the Newton variant (falls freely, no floor contact)\n");
    } else {
      for (int i = 0; i < SETTLE; i++) {
        mj_step(m, d);
        if (i == 999) report(m, d, "after 1 s");
        if (i == 1999) report(m, d, "after 2 s");
      }
      report(m, d, "settled (10 s)");
      save(m, d, &settled[v]);
    }
  }

  double *per[NV_MAX], *percpu[NV_MAX];
  mjtNum minz[NV_MAX], maxz[NV_MAX];
  int minncon[NV_MAX];
  for (int v = 0; v < NV_MAX; v++) {
    per[v] = malloc(sizeof(double) * batches);
    percpu[v] = malloc(sizeof(double) * batches);
    minz[v] = 1e9;
    maxz[v] = -1e9;
    minncon[v] = 1000;
  }
  for (int b = 0; b < batches; b++)
    for (int v = 0; v < NV_MAX; v++) {
      set_variant(m, v);
      double total = 0, totalcpu = 0;
      for (int s = 0; s < segments; s++) {
        restore(m, d, &settled[v]);
        double c0 = cpu(), t0 = now();
        for (int i = 0; i < steps; i++) mj_step(m, d);
        total += now() - t0;
        totalcpu += cpu() - c0;
        if (d->qpos[2] < minz[v]) minz[v] = d->qpos[2];
        if (d->qpos[2] > maxz[v]) maxz[v] = d->qpos[2];
        if (d->ncon < minncon[v]) minncon[v] = d->ncon;
      }
      per[v][b] = 1e6 * total / ((double)segments * steps);
      percpu[v][b] = 1e6 * totalcpu / ((double)segments * steps);
    }

  printf("\nmj_step, µs per step: %d batches x %d segments x %d steps, state restored before each segment\n",
         batches, segments, steps);
  printf("%-28s %8s %8s %8s | %8s %8s %8s | %s\n", "variant", "median", "p10", "p90", "cpu med", "cpu p10",
         "cpu p90", "base z at segment ends [min, max], min ncon");
  for (int v = 0; v < NV_MAX; v++) {
    double a, b, c, e, f, g;
    stats(per[v], batches, &a, &b, &c);
    stats(percpu[v], batches, &e, &f, &g);
    printf("%-28s %8.3f %8.3f %8.3f | %8.3f %8.3f %8.3f | [%.4f, %.4f] m, %d\n", NAMES[v], a, b, c, e, f, g,
           minz[v], maxz[v], minncon[v]);
  }
  printf("(median/p10/p90: wall clock, CLOCK_MONOTONIC; cpu: CLOCK_THREAD_CPUTIME_ID, same batches)\n");
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
