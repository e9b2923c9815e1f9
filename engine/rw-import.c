/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-import.c — reading and writing room models through Assimp.
 *
 * Import: Assimp triangulates, joins identical vertices within each of its
 * meshes and sorts primitives by type; we walk the node tree applying each
 * node's transform (so a model built from instanced or moved parts lands
 * where the modeller put it), keep triangles only, and weld coincident
 * vertices across meshes ourselves. The weld matters: a wall and the floor
 * exported as two meshes share their edge only in position, and the
 * watertightness check (rw-mesh-report.c) works on shared vertex indices.
 *
 * Surface names (docs/IMPORT.md): the Assimp mesh name; when several meshes
 * carry the same mesh name but different materials (an OBJ object split by
 * `usemtl`), the material name; when neither is usable, "surface N". A
 * material name that differs from the surface name is kept as a hint for
 * material matching (RwMesh.surface_materials).
 *
 * Bad input: a few cheap checks before Assimp (empty file, OBJ cut in its
 * last line, binary STL shorter than its triangle count, damaged PLY
 * header), then Assimp in the import helper process, because it can
 * crash or hang on damaged files (see import_isolated).
 *
 * Export: one Assimp mesh, material and node per surface, named after it
 * (the material after the surface's material hint when it has one), so
 * that formats with names (OBJ, glTF, COLLADA) keep them; formats without
 * (STL, PLY) keep only the geometry.
 */
#include "rw-mesh.h"
#include "rw-file.h"
#include "rw-helper.h"
#include "rw-i18n.h"
#include "rw-config.h"

#include <assimp/cexport.h>
#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- welding ------------------------------------------------------------ */

/* Vertices closer than this fraction of the bounding-box diagonal (in every
 * coordinate) are one vertex. 1e-7 of a 10 m room is 1 µm: far below any
 * grid spacing the solver uses, and above the rounding of coordinates that
 * went through float32 (STL, glTF) or 6-digit text. */
#define RW_WELD_RELATIVE 1e-7

typedef struct {
  int64_t key[3];
  uint32_t vertex;     /* representative (new index) */
  bool used;
} WeldSlot;

static uint64_t
weld_hash (const int64_t k[3])
{
  uint64_t h = 1469598103934665603ull;
  for (int i = 0; i < 3; i++)
    {
      h ^= (uint64_t) k[i];
      h *= 1099511628211ull;
      h ^= h >> 29;
    }
  return h;
}

/* Greedy weld with a hash grid of cell size tol: a vertex joins the first
 * representative within tol (Chebyshev) found in the 27 neighbouring cells,
 * or becomes a representative itself. Writes remap[n] and the welded
 * coordinates; returns the number of welded vertices, or SIZE_MAX when
 * out of memory. */
static size_t
weld_vertices (const double *xyz, size_t n, double tol, uint32_t *remap, double *out_xyz)
{
  size_t cap = 16;
  while (cap < 2 * n + 16)
    cap *= 2;
  WeldSlot *slots = calloc (cap, sizeof *slots);
  if (slots == NULL)
    return SIZE_MAX;
  size_t n_out = 0;
  for (size_t v = 0; v < n; v++)
    {
      const double *p = xyz + 3 * v;
      int64_t k[3];
      /* Clamped so that a far-away model cannot overflow the cell index
       * (clamped points share a cell and are still compared exactly). */
      for (int i = 0; i < 3; i++)
        k[i] = (int64_t) fmax (-4e18, fmin (4e18, floor (p[i] / tol)));
      long found = -1;
      for (int dx = -1; dx <= 1 && found < 0; dx++)
        for (int dy = -1; dy <= 1 && found < 0; dy++)
          for (int dz = -1; dz <= 1 && found < 0; dz++)
            {
              int64_t q[3] = { k[0] + dx, k[1] + dy, k[2] + dz };
              for (size_t s = weld_hash (q) & (cap - 1); slots[s].used; s = (s + 1) & (cap - 1))
                {
                  if (memcmp (slots[s].key, q, sizeof q) != 0)
                    continue;
                  const double *r = out_xyz + 3 * slots[s].vertex;
                  if (fabs (r[0] - p[0]) <= tol && fabs (r[1] - p[1]) <= tol
                      && fabs (r[2] - p[2]) <= tol)
                    {
                      found = slots[s].vertex;
                      break;
                    }
                }
            }
      if (found >= 0)
        {
          remap[v] = (uint32_t) found;
          continue;
        }
      size_t s = weld_hash (k) & (cap - 1);
      while (slots[s].used)
        s = (s + 1) & (cap - 1);
      memcpy (slots[s].key, k, sizeof k);
      slots[s].vertex = (uint32_t) n_out;
      slots[s].used = true;
      memcpy (out_xyz + 3 * n_out, p, 3 * sizeof (double));
      remap[v] = (uint32_t) n_out++;
    }
  free (slots);
  return n_out;
}

/* ---- import ------------------------------------------------------------- */

static bool
has_extension (const char *path, const char *ext)
{
  size_t n = strlen (path), m = strlen (ext);
  return n > m && path[n - m - 1] == '.' && strcasecmp (path + n - m, ext) == 0;
}

/* Assimp's OBJ reader accepts a file cut in the middle of its last line
 * (it keeps what it could parse), which would turn a truncated download
 * into a silently open room. The last line of an OBJ that was cut short is
 * a vertex with fewer than three coordinates, a face with fewer than three
 * corners, or a face whose last corner ends in '/'. */
static bool
obj_looks_truncated (const char *path)
{
  FILE *f = fopen (path, "rb");
  if (f == NULL)
    return false;
  char tail[4096];
  if (fseek (f, 0, SEEK_END) != 0)
    {
      fclose (f);
      return false;
    }
  long size = ftell (f);
  long start = size > (long) sizeof tail - 1 ? size - (long) sizeof tail + 1 : 0;
  fseek (f, start, SEEK_SET);
  size_t n = fread (tail, 1, sizeof tail - 1, f);
  fclose (f);
  tail[n] = '\0';
  while (n > 0 && isspace ((unsigned char) tail[n - 1]))
    tail[--n] = '\0';
  if (n == 0)
    return false;
  char *line = strrchr (tail, '\n');
  line = line ? line + 1 : tail;
  while (*line == ' ' || *line == '\t')
    line++;
  int tokens = 0;
  bool last_slash = false;
  char buf[4096];
  snprintf (buf, sizeof buf, "%s", line);
  char *save = NULL;
  char *tok = strtok_r (buf, " \t\r", &save);
  if (tok == NULL)
    return false;
  char kind[8];
  snprintf (kind, sizeof kind, "%s", tok);
  while ((tok = strtok_r (NULL, " \t\r", &save)) != NULL)
    {
      tokens++;
      last_slash = tok[strlen (tok) - 1] == '/';
    }
  if (strcmp (kind, "v") == 0)
    return tokens < 3;
  if (strcmp (kind, "f") == 0)
    return tokens < 3 || last_slash;
  return false;
}

/* A binary STL is an 80-byte header, a 32-bit triangle count and 50 bytes
 * per triangle. When the count promises more than the file holds (a copy
 * cut short), say so with numbers; Assimp only says it cannot tell the
 * STL flavour. Returns true when the file is such a truncated STL. */
static bool
stl_binary_truncated (const char *path, long size, uint32_t *promised, long *held)
{
  if (size < 84)
    return false;
  FILE *f = fopen (path, "rb");
  if (f == NULL)
    return false;
  unsigned char head[84];
  bool ok = fread (head, 1, sizeof head, f) == sizeof head;
  fclose (f);
  if (!ok)
    return false;
  /* ASCII STL starts with "solid" (some binary ones too; those have the
   * right size and are not reported here). */
  if (memcmp (head, "solid", 5) == 0)
    return false;
  uint32_t n = (uint32_t) head[80] | (uint32_t) head[81] << 8 | (uint32_t) head[82] << 16
               | (uint32_t) head[83] << 24;
  /* A count far beyond the file (garbage, or not an STL at all) is not a
   * truncation: leave that to the generic message. */
  long long n_held = (size - 84) / 50;
  if (n == 0 || 84 + 50 * (long long) n <= size || (long long) n > 1000 * (n_held + 1))
    return false;
  *promised = n;
  *held = (long) n_held;
  return true;
}

/* Assimp 5.2's PLY reader crashes or loops forever on some damaged
 * headers (found by flipping bytes of valid files). The header is simple,
 * so it is checked here first: the magic line, known keywords and types
 * only, an end_header, and element counts the rest of the file can hold
 * (binary: their fixed-size bytes; ASCII: two bytes per value). Returns
 * NULL when fine, else what is wrong. */
static int
ply_type_size (const char *t)
{
  static const struct { const char *name; int size; } types[] = {
    { "char", 1 }, { "uchar", 1 }, { "int8", 1 }, { "uint8", 1 }, { "short", 2 }, { "ushort", 2 },
    { "int16", 2 }, { "uint16", 2 }, { "int", 4 }, { "uint", 4 }, { "int32", 4 }, { "uint32", 4 },
    { "float", 4 }, { "float32", 4 }, { "double", 8 }, { "float64", 8 },
  };
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    if (strcmp (t, types[i].name) == 0)
      return types[i].size;
  return 0;
}

static const char *
ply_header_problem (const char *path, long size)
{
  FILE *f = fopen (path, "rb");
  if (f == NULL)
    return NULL;
  static const size_t cap = 65536;
  char *buf = malloc (cap + 1);
  if (buf == NULL)
    {
      fclose (f);
      return NULL;
    }
  size_t n = fread (buf, 1, cap, f);
  fclose (f);
  buf[n] = '\0';
  const char *problem = NULL;
  bool binary = false, have_format = false, ended = false;
  double min_bytes = 0, element_count = 0, element_bytes = 0;
  char *save = NULL;
  size_t header_len = 0;
  int line_no = 0;
  for (char *line = strtok_r (buf, "\n", &save); line && !ended; line = strtok_r (NULL, "\n", &save))
    {
      header_len = (size_t) (line - buf) + strlen (line) + 1;
      size_t len = strlen (line);
      if (len > 0 && line[len - 1] == '\r')
        line[len - 1] = '\0';
      char w[4][64] = { "", "", "", "" };
      int nw = sscanf (line, "%63s %63s %63s %63s", w[0], w[1], w[2], w[3]);
      if (line_no++ == 0)
        {
          if (strcmp (line, "ply") != 0)
            problem = _("not a PLY file (no 'ply' line)");
        }
      else if (nw <= 0)
        problem = _("empty line in the PLY header");
      else if (strcmp (w[0], "comment") == 0 || strcmp (w[0], "obj_info") == 0)
        ;
      else if (strcmp (w[0], "format") == 0)
        {
          have_format = true;
          binary = strcmp (w[1], "binary_little_endian") == 0 || strcmp (w[1], "binary_big_endian") == 0;
          if (!binary && strcmp (w[1], "ascii") != 0)
            problem = _("unknown PLY format");
        }
      else if (strcmp (w[0], "element") == 0)
        {
          char *end;
          double count = nw >= 3 ? strtod (w[2], &end) : -1;
          if (nw != 3 || *end != '\0' || !(count >= 0) || count > 2147483647.0 || count != floor (count))
            problem = _("bad element line in the PLY header");
          min_bytes += element_count * element_bytes;
          element_count = count;
          element_bytes = 0;
        }
      else if (strcmp (w[0], "property") == 0)
        {
          if (nw == 3 && ply_type_size (w[1]) > 0)
            element_bytes += binary ? ply_type_size (w[1]) : 2;
          else if (nw == 4 && strcmp (w[1], "list") == 0 && ply_type_size (w[2]) > 0 && ply_type_size (w[3]) > 0)
            element_bytes += binary ? ply_type_size (w[2]) : 2;
          else
            problem = _("bad property line in the PLY header");
        }
      else if (strcmp (w[0], "end_header") == 0 && nw == 1)
        ended = true;
      else
        problem = _("unknown keyword in the PLY header");
      if (problem)
        break;
    }
  min_bytes += element_count * element_bytes;
  if (problem == NULL && (!ended || !have_format))
    problem = _("the PLY header is incomplete (no format or end_header line)");
  if (problem == NULL && min_bytes > (double) size - (double) header_len)
    problem = _("the PLY file is truncated: its header promises more data than the file holds");
  free (buf);
  return problem;
}

/* Assimp's messages are written for its developers; the common cases get a
 * plain sentence first, Assimp's own words stay at the end. */
static bool
fail_assimp (RwError *err, const char *path, const char *assimp_msg)
{
  const char *m = assimp_msg && *assimp_msg ? assimp_msg : _("no details");
  /* Match on Assimp's words only, never on the file name it quotes (a file
   * called "truncated.stl" must not make every message say truncated). */
  char words[1024];
  snprintf (words, sizeof words, "%s", m);
  const char *base = strrchr (path, '/');
  base = base ? base + 1 : path;
  for (char *hit; *base && (hit = strstr (words, base)) != NULL;)
    memset (hit, ' ', strlen (base));
  m = words;
  const char *plain;
  if (strstr (m, "STL storage representation"))
    plain = _("not a valid STL file: neither ASCII STL nor a binary STL whose size matches its "
              "triangle count (truncated or damaged)");
  else if (strstr (m, "contains no faces") || strstr (m, "mNumMeshes is 0"))
    plain = _("no triangles found: the file holds no faces (is it really a mesh file?)");
  else if (strstr (m, "No suitable reader") || strstr (m, "no suitable reader"))
    plain = _("not a mesh file in a format Assimp can read (or the file is damaged)");
  else if (strstr (m, "too small") || strstr (m, "unexpected end") || strstr (m, "Unexpected end")
           || strstr (m, "EOF") || strstr (m, "truncated") || strstr (m, "out of range")
           || strstr (m, "beyond"))
    plain = _("the file is truncated or damaged");
  else if (strstr (m, "Unable to open") || strstr (m, "Failed to open"))
    plain = _("cannot open the file");
  else
    plain = _("the file could not be read as a mesh");
  return rw_fail (err, RW_ERROR_INPUT, _("%s: %s (Assimp: %s)"), path, plain,
                  assimp_msg && *assimp_msg ? assimp_msg : _("no details"));
}

static bool
is_generic_name (const char *s)
{
  return s == NULL || *s == '\0' || strcmp (s, "DefaultMaterial") == 0
         || strcmp (s, AI_DEFAULT_MATERIAL_NAME) == 0 || strcmp (s, "defaultobject") == 0
         || strcmp (s, "<STL_BINARY>") == 0 || strcmp (s, "AssimpScene") == 0;
}

typedef struct {
  const struct aiScene *scene;
  double scale;
  char **names;           /* per Assimp mesh: the surface name */
  double *xyz;            /* gathered vertices, before welding */
  size_t n_v, cap_v;
  uint32_t *tri;          /* gathered triangles (indices into xyz) */
  uint32_t *tri_surf;
  size_t n_t, cap_t;
  size_t n_nonfinite;
  double first_nonfinite[3];  /* as read, before scaling */
  bool oom;
} Gather;

static bool
gather_reserve (Gather *g, size_t add_v, size_t add_t)
{
  if (g->n_v + add_v > g->cap_v)
    {
      size_t c = g->cap_v ? g->cap_v : 1024;
      while (c < g->n_v + add_v)
        c *= 2;
      double *p = realloc (g->xyz, 3 * c * sizeof (double));
      if (p == NULL)
        return !(g->oom = true);
      g->xyz = p;
      g->cap_v = c;
    }
  if (g->n_t + add_t > g->cap_t)
    {
      size_t c = g->cap_t ? g->cap_t : 1024;
      while (c < g->n_t + add_t)
        c *= 2;
      uint32_t *p = realloc (g->tri, 3 * c * sizeof (uint32_t));
      if (p == NULL)
        return !(g->oom = true);
      g->tri = p;
      uint32_t *q = realloc (g->tri_surf, c * sizeof (uint32_t));
      if (q == NULL)
        return !(g->oom = true);
      g->tri_surf = q;
      g->cap_t = c;
    }
  return true;
}

/* Assimp (as packaged) stores coordinates as float32, so "6.4" in an OBJ
 * arrives as 6.40000009537: a 7 × 5 m room then has 33.50000024 m² of
 * floor. The shortest decimal that reads back as the same float is what
 * the author wrote (for text formats) or a value within half a float ulp
 * (for binary ones), so we take that decimal in double precision. */
static double
float_as_written (ai_real f)
{
  if (sizeof (ai_real) != sizeof (float) || !isfinite (f))
    return (double) f;
  char buf[32];
  for (int digits = 6; digits <= 9; digits++)
    {
      snprintf (buf, sizeof buf, "%.*g", digits, (double) f);
      if (strtof (buf, NULL) == (float) f)
        return strtod (buf, NULL);
    }
  return (double) f;
}

static void
gather_node (Gather *g, const struct aiNode *node, const double parent[16],
             const uint32_t *mesh_surface)
{
  /* Row-major 4×4, column vectors (Assimp's convention): world = parent × local. */
  const struct aiMatrix4x4 *t = &node->mTransformation;
  const double local[16] = { t->a1, t->a2, t->a3, t->a4, t->b1, t->b2, t->b3, t->b4,
                             t->c1, t->c2, t->c3, t->c4, t->d1, t->d2, t->d3, t->d4 };
  double m[16];
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 4; c++)
      {
        double s = 0;
        for (int k = 0; k < 4; k++)
          s += parent[4 * r + k] * local[4 * k + c];
        m[4 * r + c] = s;
      }
  /* A mirroring transform (negative determinant) turns outward normals
   * inward: flip the winding to keep orientation. */
  double det = m[0] * (m[5] * m[10] - m[6] * m[9]) - m[1] * (m[4] * m[10] - m[6] * m[8])
               + m[2] * (m[4] * m[9] - m[5] * m[8]);
  bool flip = det < 0;

  for (unsigned i = 0; i < node->mNumMeshes && !g->oom; i++)
    {
      unsigned mi = node->mMeshes[i];
      if (mi >= g->scene->mNumMeshes)
        continue;
      const struct aiMesh *mesh = g->scene->mMeshes[mi];
      if (!(mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE) || mesh->mNumVertices == 0)
        continue;
      if (!gather_reserve (g, mesh->mNumVertices, mesh->mNumFaces))
        return;
      size_t base = g->n_v;
      for (unsigned v = 0; v < mesh->mNumVertices; v++)
        {
          const struct aiVector3D *p = &mesh->mVertices[v];
          double x = float_as_written (p->x), y = float_as_written (p->y), z = float_as_written (p->z);
          double *o = g->xyz + 3 * (base + v);
          for (int r = 0; r < 3; r++)
            o[r] = g->scale * (m[4 * r] * x + m[4 * r + 1] * y + m[4 * r + 2] * z + m[4 * r + 3]);
          if ((!isfinite (o[0]) || !isfinite (o[1]) || !isfinite (o[2])) && g->n_nonfinite++ == 0)
            {
              g->first_nonfinite[0] = x;
              g->first_nonfinite[1] = y;
              g->first_nonfinite[2] = z;
            }
        }
      g->n_v += mesh->mNumVertices;
      for (unsigned f = 0; f < mesh->mNumFaces; f++)
        {
          const struct aiFace *face = &mesh->mFaces[f];
          if (face->mNumIndices != 3)
            continue;
          uint32_t a = face->mIndices[0], b = face->mIndices[1], c = face->mIndices[2];
          if (a >= mesh->mNumVertices || b >= mesh->mNumVertices || c >= mesh->mNumVertices)
            continue;
          uint32_t *o = g->tri + 3 * g->n_t;
          o[0] = (uint32_t) base + a;
          o[1] = (uint32_t) base + (flip ? c : b);
          o[2] = (uint32_t) base + (flip ? b : c);
          g->tri_surf[g->n_t++] = mesh_surface[mi];
        }
    }
  for (unsigned c = 0; c < node->mNumChildren && !g->oom; c++)
    gather_node (g, node->mChildren[c], m, mesh_surface);
}

static const char *
material_name (const struct aiScene *scene, unsigned index, struct aiString *buf)
{
  if (index >= scene->mNumMaterials)
    return NULL;
  if (aiGetMaterialString (scene->mMaterials[index], AI_MATKEY_NAME, buf) != AI_SUCCESS)
    return NULL;
  return buf->data;
}

/* Chooses one surface name per Assimp mesh (see the file comment). */
static char **
surface_names_for (const struct aiScene *scene)
{
  unsigned n = scene->mNumMeshes;
  char **names = calloc (n ? n : 1, sizeof (char *));
  if (names == NULL)
    return NULL;
  for (unsigned i = 0; i < n; i++)
    {
      const struct aiMesh *mi = scene->mMeshes[i];
      struct aiString bi;
      const char *mat_i = material_name (scene, mi->mMaterialIndex, &bi);
      bool use_material = is_generic_name (mi->mName.data);
      if (!use_material && !is_generic_name (mat_i))
        for (unsigned j = 0; j < n; j++)
          {
            const struct aiMesh *mj = scene->mMeshes[j];
            if (j == i || mj->mMaterialIndex == mi->mMaterialIndex
                || strcmp (mj->mName.data, mi->mName.data) != 0)
              continue;
            struct aiString bj;
            const char *mat_j = material_name (scene, mj->mMaterialIndex, &bj);
            if (mat_j == NULL || strcmp (mat_j, mat_i) != 0)
              {
                use_material = true;
                break;
              }
          }
      char tmp[64];
      const char *name;
      if (!use_material)
        name = mi->mName.data;
      else if (!is_generic_name (mat_i))
        name = mat_i;
      else
        {
          snprintf (tmp, sizeof tmp, _("surface %u"), i + 1);
          name = tmp;
        }
      names[i] = strdup (name);
      if (names[i] == NULL)
        {
          for (unsigned k = 0; k < i; k++)
            free (names[k]);
          free (names);
          return NULL;
        }
    }
  return names;
}

/* What Assimp's scene becomes before welding: surfaces (unique names),
 * vertices (scaled, transformed), triangles and their surface ids. */
typedef struct {
  size_t n_surf;
  char **surf;
  char **surf_mat;     /* n_surf: the model's material name when it differs, or NULL */
  size_t n_v, n_t;
  double *xyz;
  uint32_t *tri, *tri_surf;
  size_t n_nonfinite;
  double first_nonfinite[3];
} RawMesh;

static void
raw_clear (RawMesh *raw)
{
  for (size_t i = 0; i < raw->n_surf; i++)
    {
      free (raw->surf[i]);
      if (raw->surf_mat)
        free (raw->surf_mat[i]);
    }
  free (raw->surf);
  free (raw->surf_mat);
  free (raw->xyz);
  free (raw->tri);
  free (raw->tri_surf);
  memset (raw, 0, sizeof *raw);
}

/* Reads the file with Assimp in this process and fills `raw`. */
static bool
import_raw (const char *path, double scale, RawMesh *raw, RwError *err)
{
  const struct aiScene *scene = aiImportFile (path, aiProcess_Triangulate
                                                    | aiProcess_JoinIdenticalVertices
                                                    | aiProcess_SortByPType
                                                    | aiProcess_ValidateDataStructure);
  if (scene == NULL)
    return fail_assimp (err, path, aiGetErrorString ());
  if ((scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE) || scene->mRootNode == NULL)
    {
      aiReleaseImport (scene);
      return rw_fail (err, RW_ERROR_INPUT, _("%s: the file holds no complete mesh (no geometry found)"), path);
    }
  bool ok = false;
  Gather g = { .scene = scene, .scale = scale };
  g.names = surface_names_for (scene);
  uint32_t *mesh_surface = calloc (scene->mNumMeshes ? scene->mNumMeshes : 1, sizeof (uint32_t));
  raw->surf = calloc (scene->mNumMeshes ? scene->mNumMeshes : 1, sizeof (char *));
  raw->surf_mat = calloc (scene->mNumMeshes ? scene->mNumMeshes : 1, sizeof (char *));
  if (g.names == NULL || mesh_surface == NULL || raw->surf == NULL || raw->surf_mat == NULL)
    goto oom;
  /* Surfaces in mesh order, only for meshes that hold triangles; meshes of
   * the same name share a surface. */
  for (unsigned i = 0; i < scene->mNumMeshes; i++)
    {
      if (!(scene->mMeshes[i]->mPrimitiveTypes & aiPrimitiveType_TRIANGLE))
        continue;
      size_t k = 0;
      while (k < raw->n_surf && strcmp (raw->surf[k], g.names[i]) != 0)
        k++;
      if (k == raw->n_surf)
        {
          if ((raw->surf[k] = strdup (g.names[i])) == NULL)
            goto oom;
          raw->n_surf++;
        }
      mesh_surface[i] = (uint32_t) k;
      /* The material name as a hint for material matching, when it says
       * something the surface name does not (Blender: object "Floor",
       * material "Carpet"). */
      struct aiString buf;
      const char *mat = material_name (scene, scene->mMeshes[i]->mMaterialIndex, &buf);
      if (raw->surf_mat[k] == NULL && !is_generic_name (mat) && strcmp (mat, raw->surf[k]) != 0
          && (raw->surf_mat[k] = strdup (mat)) == NULL)
        goto oom;
    }
  static const double identity[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
  gather_node (&g, scene->mRootNode, identity, mesh_surface);
  if (g.oom)
    goto oom;
  raw->xyz = g.xyz;
  raw->n_v = g.n_v;
  raw->tri = g.tri;
  raw->tri_surf = g.tri_surf;
  raw->n_t = g.n_t;
  raw->n_nonfinite = g.n_nonfinite;
  memcpy (raw->first_nonfinite, g.first_nonfinite, sizeof g.first_nonfinite);
  g.xyz = NULL;
  g.tri = g.tri_surf = NULL;
  ok = true;
  goto out;
oom:
  rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory while loading the mesh"), path);
out:
  if (g.names)
    for (unsigned i = 0; i < scene->mNumMeshes; i++)
      free (g.names[i]);
  free (g.names);
  free (g.xyz);
  free (g.tri);
  free (g.tri_surf);
  free (mesh_surface);
  aiReleaseImport (scene);
  return ok;
}

/* ---- import in a helper process -----------------------------------------
 *
 * Assimp 5.2 crashes (segfault, failed ai_assert → abort) or loops forever
 * on some damaged files: flipping a few bytes of valid PLY files found all
 * three. The library must never take the program down with it (DESIGN §6),
 * so the import runs in a helper process, `roomwave-import-helper` (built
 * from app/, rw_import_helper_run), that writes the triangles on its
 * stdout; a helper that dies or does not answer in time becomes an
 * RW_ERROR_INPUT naming the file. The helper is a program of its own,
 * started with posix_spawn here and with GSubprocess by the GUI, not a
 * fork() of the caller: a fork of a multi-threaded process (GTK, OpenMP)
 * may only call async-signal-safe functions, and Assimp allocates. Only
 * when no helper is installed does rw_mesh_load still fork (a library
 * used on its own). ROOMWAVE_IMPORT_IN_PROCESS=1 imports in-process
 * (debugging).
 *
 * The message: "RWIM", u32 version, u8 ok; then either i32 code + u32
 * length + text, or the RawMesh field by field (counts, first non-finite
 * vertex, surface names and material hints, vertices, triangles, their
 * surface ids), in the machine's byte order (helper and caller are built
 * together).
 */

#define HELPER_MAGIC "RWIM"
#define HELPER_VERSION 1u

/* Reads exactly n bytes, waiting at most until `deadline` (CLOCK_MONOTONIC
 * seconds); false on EOF, error or timeout (*timed_out set). */
static bool
read_all (int fd, void *data, size_t n, double deadline, bool *timed_out)
{
  char *p = data;
  while (n > 0)
    {
      struct timespec now;
      clock_gettime (CLOCK_MONOTONIC, &now);
      double left = deadline - (now.tv_sec + 1e-9 * now.tv_nsec);
      if (left <= 0)
        {
          *timed_out = true;
          return false;
        }
      struct pollfd pfd = { .fd = fd, .events = POLLIN };
      int pr = poll (&pfd, 1, left > 1e6 ? 1000000000 : (int) (left * 1000) + 1);
      if (pr < 0 && errno == EINTR)
        continue;
      if (pr < 0)
        return false;
      if (pr == 0)
        continue;
      ssize_t r = read (fd, p, n);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        return false;
      p += r;
      n -= (size_t) r;
    }
  return true;
}

/* Where the message is read from: a pipe (until a deadline), or the bytes
 * a caller has already collected from the helper (the GUI). */
typedef struct {
  int fd;                 /* ≥ 0: the pipe */
  double deadline;
  bool timed_out;
  const uint8_t *buf;     /* fd < 0: these bytes */
  size_t len, pos;
} Reader;

static bool
get (Reader *rd, void *data, size_t n)
{
  if (rd->fd >= 0)
    return read_all (rd->fd, data, n, rd->deadline, &rd->timed_out);
  if (rd->len - rd->pos < n)
    return false;
  memcpy (data, rd->buf + rd->pos, n);
  rd->pos += n;
  return true;
}

bool
rw_import_helper_run (const char *path, double scale, int fd)
{
  RawMesh raw;
  memset (&raw, 0, sizeof raw);
  RwError err = { 0 };
  uint32_t version = HELPER_VERSION;
  uint8_t ok = import_raw (path, scale, &raw, &err);
  bool w = rw_file_write_all (fd, HELPER_MAGIC, 4) && rw_file_write_all (fd, &version, sizeof version)
           && rw_file_write_all (fd, &ok, 1);
  if (!ok)
    {
      int32_t code = err.code;
      uint32_t len = (uint32_t) strlen (err.message);
      w = w && rw_file_write_all (fd, &code, sizeof code) && rw_file_write_all (fd, &len, sizeof len)
          && rw_file_write_all (fd, err.message, len);
    }
  else
    {
      uint64_t counts[4] = { raw.n_surf, raw.n_v, raw.n_t, raw.n_nonfinite };
      w = w && rw_file_write_all (fd, counts, sizeof counts)
          && rw_file_write_all (fd, raw.first_nonfinite, sizeof raw.first_nonfinite);
      for (size_t i = 0; w && i < raw.n_surf; i++)
        {
          uint32_t len = (uint32_t) strlen (raw.surf[i]);
          uint32_t mlen = raw.surf_mat[i] ? (uint32_t) strlen (raw.surf_mat[i]) : UINT32_MAX;
          w = rw_file_write_all (fd, &len, sizeof len) && rw_file_write_all (fd, raw.surf[i], len)
              && rw_file_write_all (fd, &mlen, sizeof mlen)
              && (mlen == UINT32_MAX || rw_file_write_all (fd, raw.surf_mat[i], mlen));
        }
      w = w && rw_file_write_all (fd, raw.xyz, 3 * raw.n_v * sizeof (double))
          && rw_file_write_all (fd, raw.tri, 3 * raw.n_t * sizeof (uint32_t))
          && rw_file_write_all (fd, raw.tri_surf, raw.n_t * sizeof (uint32_t));
    }
  raw_clear (&raw);
  return w;
}

/* Reads the helper's message into `raw` (or its error into `err`): true
 * when a whole message came (*ok says which kind). */
static bool
read_message (Reader *rd, const char *path, RawMesh *raw, bool *ok, RwError *err)
{
  char magic[4];
  uint32_t version;
  uint8_t ok8 = 0;

  *ok = false;
  if (!get (rd, magic, 4) || memcmp (magic, HELPER_MAGIC, 4) != 0 || !get (rd, &version, sizeof version)
      || version != HELPER_VERSION || !get (rd, &ok8, 1))
    return false;
  if (!ok8)
    {
      int32_t code;
      uint32_t len;
      char msg[sizeof err->message];
      if (!get (rd, &code, sizeof code) || !get (rd, &len, sizeof len) || len >= sizeof msg
          || !get (rd, msg, len))
        return false;
      msg[len] = '\0';
      rw_fail (err, (RwErrorCode) code, "%s", msg);
      return true;
    }
  uint64_t counts[4];
  bool r = get (rd, counts, sizeof counts) && get (rd, raw->first_nonfinite, sizeof raw->first_nonfinite)
           && counts[0] < (1u << 30) && counts[1] < ((uint64_t) 1 << 40) && counts[2] < ((uint64_t) 1 << 40);
  if (r)
    {
      raw->surf = calloc (counts[0] ? counts[0] : 1, sizeof (char *));
      raw->surf_mat = calloc (counts[0] ? counts[0] : 1, sizeof (char *));
      raw->xyz = malloc (counts[1] ? 3 * counts[1] * sizeof (double) : 1);
      raw->tri = malloc (counts[2] ? 3 * counts[2] * sizeof (uint32_t) : 1);
      raw->tri_surf = malloc (counts[2] ? counts[2] * sizeof (uint32_t) : 1);
      r = raw->surf && raw->surf_mat && raw->xyz && raw->tri && raw->tri_surf;
      if (!r)
        rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory while loading the mesh"), path);
      raw->n_nonfinite = counts[3];
    }
  for (uint64_t i = 0; r && i < counts[0]; i++)
    {
      uint32_t len, mlen = UINT32_MAX;
      r = get (rd, &len, sizeof len) && len < (1u << 20) && (raw->surf[i] = calloc (1, len + 1)) != NULL
          && get (rd, raw->surf[i], len);
      raw->n_surf += raw->surf[i] != NULL;
      r = r && get (rd, &mlen, sizeof mlen)
          && (mlen == UINT32_MAX
              || (mlen < (1u << 20) && (raw->surf_mat[i] = calloc (1, mlen + 1)) != NULL
                  && get (rd, raw->surf_mat[i], mlen)));
    }
  r = r && get (rd, raw->xyz, 3 * counts[1] * sizeof (double))
      && get (rd, raw->tri, 3 * counts[2] * sizeof (uint32_t))
      && get (rd, raw->tri_surf, counts[2] * sizeof (uint32_t));
  if (r)
    {
      raw->n_v = counts[1];
      raw->n_t = counts[2];
    }
  *ok = r;
  return r;
}

/* The outcome of a helper run: its message when one came, else why not,
 * from how the helper ended (`status` as waitpid gives it). */
static bool
helper_outcome (const char *path, bool got, bool ok, bool timed_out, double limit_s, int status, RwError *err)
{
  if (got)
    return ok;   /* false: the helper's own error, already in err */
  if (err && err->code == RW_ERROR_MEMORY)
    return false;
  return rw_helper_failure (path, "Assimp", limit_s, timed_out, status, err);
}

/* A stray vertex: farther from the model's median point than
 * RW_STRAY_RATIO times the median distance of all vertices from it. One
 * point at 1e30 left by a broken exporter would otherwise set the welding
 * tolerance (1e-7 of the bounding-box diagonal) so large that the whole
 * room collapses into one point ("every triangle has zero area"). The
 * ratio keeps that tolerance below 1e-3 of the model's typical radius, and
 * is far beyond what real models show (a detailed 0.3 m object in a plain
 * 50 m hall: a few hundred). */
#define RW_STRAY_RATIO 1e4

static int
double_cmp (const void *pa, const void *pb)
{
  double a = *(const double *) pa, b = *(const double *) pb;
  return (a > b) - (a < b);
}

/* 1 with the farthest stray vertex, the median point and the median
 * distance; 0 when there is none; −1 when memory runs out. */
static int
find_stray_vertex (const double *xyz, size_t n, size_t *stray, double centre[3], double *radius)
{
  if (n < 4)
    return 0;
  double *tmp = malloc (n * sizeof *tmp);
  if (tmp == NULL)
    return -1;
  for (int k = 0; k < 3; k++)
    {
      for (size_t v = 0; v < n; v++)
        tmp[v] = xyz[3 * v + k];
      qsort (tmp, n, sizeof *tmp, double_cmp);
      centre[k] = 0.5 * (tmp[(n - 1) / 2] + tmp[n / 2]);
    }
  size_t far = 0;
  double far_d = -1;
  for (size_t v = 0; v < n; v++)
    {
      const double *p = xyz + 3 * v;
      double d = sqrt ((p[0] - centre[0]) * (p[0] - centre[0]) + (p[1] - centre[1]) * (p[1] - centre[1])
                       + (p[2] - centre[2]) * (p[2] - centre[2]));
      tmp[v] = d;
      if (d > far_d)
        {
          far_d = d;
          far = v;
        }
    }
  qsort (tmp, n, sizeof *tmp, double_cmp);
  *radius = tmp[n / 2];
  free (tmp);
  *stray = far;
  return *radius > 0 && far_d > RW_STRAY_RATIO * *radius ? 1 : 0;
}


const char *
rw_import_helper_path (void)
{
  const char *env = getenv ("ROOMWAVE_IMPORT_HELPER");
  if (env != NULL && *env != '\0')
    return access (env, X_OK) == 0 ? env : NULL;
  if (access (RW_BUILD_IMPORT_HELPER, X_OK) == 0)
    return RW_BUILD_IMPORT_HELPER;
  if (access (RW_INSTALL_IMPORT_HELPER, X_OK) == 0)
    return RW_INSTALL_IMPORT_HELPER;
  return NULL;
}

void
rw_import_helper_format_scale (double scale, char buf[RW_IMPORT_HELPER_SCALE_LEN])
{
  snprintf (buf, RW_IMPORT_HELPER_SCALE_LEN, "%.17g", scale);
}

/* Starts the helper (rw_helper_spawn; a fork only without one): the
 * child's pid and *fd the read end of its stdout, or −1. */
static pid_t
start_helper (const char *path, double scale, int *fd)
{
  if (rw_import_helper_path () != NULL)
    {
      char scale_arg[RW_IMPORT_HELPER_SCALE_LEN];
      rw_import_helper_format_scale (scale, scale_arg);
      char *const args[] = { scale_arg, (char *) path, NULL };
      return rw_helper_spawn (args, fd);
    }
  int fds[2];
  if (pipe2 (fds, O_CLOEXEC) != 0)
    return -1;
  /* Anything the parent buffered must not be written twice by the child. */
  fflush (NULL);
  pid_t pid = fork ();
  if (pid == 0)
    {
      int devnull = open ("/dev/null", O_WRONLY);
      if (devnull >= 0)
        {
          dup2 (devnull, STDERR_FILENO);
          close (devnull);
        }
      close (fds[0]);
      _exit (rw_import_helper_run (path, scale, fds[1]) ? 0 : 3);
    }
  close (fds[1]);
  if (pid < 0)
    {
      close (fds[0]);
      return -1;
    }
  *fd = fds[0];
  return pid;
}

static bool
import_isolated (const char *path, double scale, double file_bytes, RawMesh *raw, RwError *err)
{
  /* Without a pipe or a child (no file descriptors left, a huge process
   * under strict overcommit), import in-process rather than not at all. */
  int fd = -1;
  pid_t pid = start_helper (path, scale, &fd);
  if (pid < 0)
    return import_raw (path, scale, raw, err);

  /* Generous: a minute plus 4 s per MB (Assimp reads FBX or IFC slowly). */
  double limit_s = 60.0 + 4.0 * file_bytes / 1e6;
  struct timespec now;
  clock_gettime (CLOCK_MONOTONIC, &now);
  Reader rd = { .fd = fd, .deadline = now.tv_sec + 1e-9 * now.tv_nsec + limit_s };
  bool ok = false;
  bool got = read_message (&rd, path, raw, &ok, err);
  close (fd);
  if (rd.timed_out)
    kill (pid, SIGKILL);
  int status = 0;
  while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
    ;
  return helper_outcome (path, got, ok, rd.timed_out, limit_s, status, err);
}

static RwMesh *mesh_from_raw (const char *path, double scale, RawMesh *raw, RwError *err);

bool
rw_mesh_load_precheck (const char *path, double scale, double *file_bytes, RwError *err)
{
  if (path == NULL || *path == '\0')
    return rw_fail (err, RW_ERROR_INPUT, _("no mesh file given"));
  if (!isfinite (scale) || scale <= 0)
    return rw_fail (err, RW_ERROR_INPUT, _("%s: scale %g is not a positive finite number"), path, scale);
  struct stat st;
  if (stat (path, &st) != 0)
    return rw_fail (err, RW_ERROR_IO, _("%s: cannot open the mesh file: %s"), path, strerror (errno));
  if (!rw_file_check_regular (path, &st, _("a mesh file"), err))
    return false;
  FILE *probe = fopen (path, "rb");
  if (probe == NULL)
    return rw_fail (err, RW_ERROR_IO, _("%s: cannot open the mesh file: %s"), path, strerror (errno));
  fclose (probe);
  if (st.st_size == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("%s: the file is empty"), path);
  if (has_extension (path, "obj") && obj_looks_truncated (path))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("%s: the file is truncated: its last line is an incomplete vertex or face"), path);

  uint32_t promised;
  long held;
  if (has_extension (path, "stl") && stl_binary_truncated (path, (long) st.st_size, &promised, &held))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("%s: the binary STL file is truncated: its header promises %u triangles, the file holds %ld"),
                    path, (unsigned) promised, held);

  const char *ply_problem = has_extension (path, "ply") ? ply_header_problem (path, (long) st.st_size) : NULL;
  if (ply_problem != NULL)
    return rw_fail (err, RW_ERROR_INPUT, _("%s: %s"), path, ply_problem);

  if (file_bytes != NULL)
    *file_bytes = (double) st.st_size;
  return true;
}

RwMesh *
rw_mesh_load (const char *path, double scale, RwError *err)
{
  double file_bytes = 0;
  if (!rw_mesh_load_precheck (path, scale, &file_bytes, err))
    return NULL;

  RawMesh raw;
  memset (&raw, 0, sizeof raw);
  /* Assimp runs in a helper process unless told otherwise (see import_isolated). */
  bool ok = rw_helper_in_process ()
              ? import_raw (path, scale, &raw, err)
              : import_isolated (path, scale, file_bytes, &raw, err);
  if (!ok)
    {
      raw_clear (&raw);
      return NULL;
    }
  return mesh_from_raw (path, scale, &raw, err);
}

RwMesh *
rw_mesh_from_helper_output (const char *path, double scale, const void *data, size_t len, int wait_status,
                            RwError *err)
{
  RawMesh raw;
  memset (&raw, 0, sizeof raw);
  Reader rd = { .fd = -1, .buf = data, .len = data != NULL ? len : 0 };
  bool ok = false;
  bool got = read_message (&rd, path, &raw, &ok, err);
  if (!helper_outcome (path, got, ok, false, 0, wait_status, err))
    {
      raw_clear (&raw);
      return NULL;
    }
  return mesh_from_raw (path, scale, &raw, err);
}

/* Welds and checks what Assimp gave (`raw`, cleared here) into a mesh. */
static RwMesh *
mesh_from_raw (const char *path, double scale, RawMesh *raw_in, RwError *err)
{
  RawMesh raw = *raw_in;
  memset (raw_in, 0, sizeof *raw_in);
  RwMesh *mesh = NULL, *out = rw_mesh_new ();
  uint32_t *remap = NULL;
  double *welded = NULL;
  for (size_t i = 0; i < raw.n_surf; i++)
    {
      uint32_t id = rw_mesh_add_surface (out, raw.surf[i]);
      if (raw.surf_mat && raw.surf_mat[i])
        rw_mesh_set_surface_material (out, id, raw.surf_mat[i]);
    }

  if (raw.n_t == 0)
    {
      rw_fail (err, RW_ERROR_INPUT,
               _("%s: the file holds no triangles (only points, lines or nothing): a room needs closed surfaces"),
               path);
      goto fail;
    }
  if (raw.n_nonfinite > 0)
    {
      const double *p = raw.first_nonfinite;
      if (isfinite (p[0]) && isfinite (p[1]) && isfinite (p[2]))
        rw_fail (err, RW_ERROR_INPUT,
                 _("%s: scale %g makes the coordinates overflow (first vertex (%g, %g, %g)): "
                   "the scale is absurd"),
                 path, scale, p[0], p[1], p[2]);
      else
        rw_fail (err, RW_ERROR_INPUT,
                 _("%s: vertex coordinates are not finite numbers (NaN or infinity), first at (%g, %g, %g)"),
                 path, p[0], p[1], p[2]);
      goto fail;
    }
  if (raw.n_v > UINT32_MAX - 1)
    {
      rw_fail (err, RW_ERROR_INPUT, _("%s: too many vertices (%zu)"), path, raw.n_v);
      goto fail;
    }

  size_t stray;
  double centre[3], radius;
  int stray_found = find_stray_vertex (raw.xyz, raw.n_v, &stray, centre, &radius);
  if (stray_found < 0)
    goto oom;
  if (stray_found > 0)
    {
      const double *p = raw.xyz + 3 * stray;
      double d = sqrt ((p[0] - centre[0]) * (p[0] - centre[0]) + (p[1] - centre[1]) * (p[1] - centre[1])
                       + (p[2] - centre[2]) * (p[2] - centre[2]));
      rw_fail (err, RW_ERROR_INPUT,
               _("%s: vertex %zu at (%g, %g, %g) lies %.3g m from the rest of the model, which lies "
                 "around (%.3f, %.3f, %.3f), most of it within %.3g m: a stray vertex (remove it in "
                 "the modelling tool)"),
               path, stray + 1, p[0], p[1], p[2], d, centre[0], centre[1], centre[2], radius);
      goto fail;
    }

  double lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY };
  for (size_t v = 0; v < raw.n_v; v++)
    for (int i = 0; i < 3; i++)
      {
        lo[i] = fmin (lo[i], raw.xyz[3 * v + i]);
        hi[i] = fmax (hi[i], raw.xyz[3 * v + i]);
      }
  double diag = sqrt ((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1])
                      + (hi[2] - lo[2]) * (hi[2] - lo[2]));
  if (!isfinite (diag))
    {
      rw_fail (err, RW_ERROR_INPUT, _("%s: coordinates too large to handle (bounding box overflows)"), path);
      goto fail;
    }
  double tol = diag > 0 ? RW_WELD_RELATIVE * diag : 1e-300;

  remap = malloc ((raw.n_v ? raw.n_v : 1) * sizeof (uint32_t));
  welded = malloc ((raw.n_v ? 3 * raw.n_v : 1) * sizeof (double));
  if (remap == NULL || welded == NULL)
    goto oom;
  size_t n_welded = weld_vertices (raw.xyz, raw.n_v, tol, remap, welded);
  if (n_welded == SIZE_MAX)
    goto oom;
  /* A large file must fail with a message, not abort in the builder. */
  if (!rw_mesh_reserve (out, n_welded, raw.n_t))
    goto oom;
  for (size_t v = 0; v < n_welded; v++)
    rw_mesh_add_vertex (out, welded[3 * v], welded[3 * v + 1], welded[3 * v + 2]);
  /* Triangles that welding collapsed to a line or point carry no area and
   * would only confuse the edge count: drop them. */
  for (size_t t = 0; t < raw.n_t; t++)
    {
      const uint32_t *tv = raw.tri + 3 * t;
      if (tv[0] >= raw.n_v || tv[1] >= raw.n_v || tv[2] >= raw.n_v || raw.tri_surf[t] >= raw.n_surf)
        {
          rw_fail (err, RW_ERROR_INTERNAL, _("%s: the importer returned an index out of range"), path);
          goto fail;
        }
      uint32_t a = remap[tv[0]], b = remap[tv[1]], c = remap[tv[2]];
      if (a == b || b == c || a == c)
        continue;
      rw_mesh_add_triangle (out, a, b, c, raw.tri_surf[t]);
    }
  if (out->n_triangles == 0)
    {
      rw_fail (err, RW_ERROR_INPUT, _("%s: every triangle has zero area"), path);
      goto fail;
    }
  out->path = strdup (path);
  mesh = out;
  out = NULL;
  goto done;

oom:
  rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory while loading the mesh"), path);
fail:
done:
  raw_clear (&raw);
  free (remap);
  free (welded);
  rw_mesh_free (out);
  return mesh;
}

/* ---- export ------------------------------------------------------------- */

/* An aiMaterial holding only its name, laid out as Assimp's material system
 * stores an aiString property: a 32-bit length, the bytes, a terminating 0. */
static struct aiMaterial *
material_new (const char *name)
{
  struct aiMaterial *mat = calloc (1, sizeof *mat);
  struct aiMaterialProperty *prop = calloc (1, sizeof *prop);
  struct aiMaterialProperty **props = calloc (1, sizeof *props);
  size_t len = strlen (name);
  if (len >= MAXLEN)
    len = MAXLEN - 1;
  char *data = calloc (1, sizeof (uint32_t) + len + 1);
  if (mat == NULL || prop == NULL || props == NULL || data == NULL)
    {
      free (mat);
      free (prop);
      free (props);
      free (data);
      return NULL;
    }
  uint32_t len32 = (uint32_t) len;
  memcpy (data, &len32, sizeof len32);
  memcpy (data + sizeof len32, name, len);
  snprintf (prop->mKey.data, sizeof prop->mKey.data, "%s", "?mat.name");
  prop->mKey.length = (uint32_t) strlen (prop->mKey.data);
  prop->mDataLength = (unsigned) (sizeof len32 + len + 1);
  prop->mType = aiPTI_String;
  prop->mData = data;
  props[0] = prop;
  mat->mProperties = props;
  mat->mNumProperties = 1;
  mat->mNumAllocated = 1;
  return mat;
}

static void
set_ai_string (struct aiString *s, const char *text)
{
  size_t len = strlen (text);
  if (len >= MAXLEN)
    len = MAXLEN - 1;
  memcpy (s->data, text, len);
  s->data[len] = '\0';
  s->length = (uint32_t) len;
}

static void
scene_free_mesh (struct aiMesh *m)
{
  if (m == NULL)
    return;
  if (m->mFaces)
    for (unsigned f = 0; f < m->mNumFaces; f++)
      free (m->mFaces[f].mIndices);
  free (m->mFaces);
  free (m->mVertices);
  free (m->mNormals);
  free (m);
}

static void
material_free (struct aiMaterial *mat)
{
  if (mat == NULL)
    return;
  for (unsigned p = 0; p < mat->mNumProperties; p++)
    {
      free (mat->mProperties[p]->mData);
      free (mat->mProperties[p]);
    }
  free (mat->mProperties);
  free (mat);
}

/* Frees a scene built by rw_mesh_export (all of it from malloc, none of it
 * from Assimp). */
static void
scene_free (struct aiScene *scene)
{
  if (scene == NULL)
    return;
  for (unsigned i = 0; i < scene->mNumMeshes; i++)
    scene_free_mesh (scene->mMeshes[i]);
  free (scene->mMeshes);
  for (unsigned i = 0; i < scene->mNumMaterials; i++)
    material_free (scene->mMaterials[i]);
  free (scene->mMaterials);
  if (scene->mRootNode)
    {
      for (unsigned c = 0; c < scene->mRootNode->mNumChildren; c++)
        {
          free (scene->mRootNode->mChildren[c]->mMeshes);
          free (scene->mRootNode->mChildren[c]);
        }
      free (scene->mRootNode->mChildren);
      free (scene->mRootNode);
    }
  free (scene);
}

bool
rw_mesh_export (const RwMesh *mesh, const char *path, const char *format_id, RwError *err)
{
  if (mesh == NULL || path == NULL || format_id == NULL)
    return rw_fail (err, RW_ERROR_INTERNAL, _("rw_mesh_export: missing argument"));
  bool known = false;
  size_t n_formats = aiGetExportFormatCount ();
  for (size_t i = 0; i < n_formats && !known; i++)
    {
      const struct aiExportFormatDesc *d = aiGetExportFormatDescription (i);
      if (d != NULL)
        {
          known = strcmp (d->id, format_id) == 0;
          aiReleaseExportFormatDescription (d);
        }
    }
  if (!known)
    return rw_fail (err, RW_ERROR_INPUT, _("%s: unknown export format '%s'"), path, format_id);
  if (mesh->n_triangles == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("%s: the mesh has no triangles to export"), path);

  struct aiScene *scene = calloc (1, sizeof *scene);
  bool ok = false;
  if (scene == NULL)
    goto oom;
  size_t n_s = mesh->n_surfaces ? mesh->n_surfaces : 1;
  /* Count triangles per surface; surfaces without triangles are left out
   * (an empty mesh is invalid in most formats). */
  size_t *count = calloc (n_s, sizeof (size_t));
  uint32_t *slot = malloc (mesh->n_vertices * sizeof (uint32_t));
  if (count == NULL || slot == NULL)
    {
      free (count);
      free (slot);
      goto oom;
    }
  for (size_t t = 0; t < mesh->n_triangles; t++)
    count[mesh->tri_surface[t] < n_s ? mesh->tri_surface[t] : 0]++;
  unsigned n_meshes = 0;
  for (size_t s = 0; s < n_s; s++)
    n_meshes += count[s] > 0;
  scene->mMeshes = calloc (n_meshes, sizeof (struct aiMesh *));
  scene->mMaterials = calloc (n_meshes, sizeof (struct aiMaterial *));
  scene->mRootNode = calloc (1, sizeof (struct aiNode));
  if (scene->mMeshes == NULL || scene->mMaterials == NULL || scene->mRootNode == NULL)
    {
      free (count);
      free (slot);
      goto oom;
    }
  struct aiNode *root = scene->mRootNode;
  set_ai_string (&root->mName, "room");
  root->mTransformation.a1 = root->mTransformation.b2 = 1;
  root->mTransformation.c3 = root->mTransformation.d4 = 1;
  /* One child node per surface, named after it: the glTF exporter turns
   * the meshes of one node into primitives of one glTF mesh, which would
   * lose the names; one node per mesh keeps one named glTF mesh each. */
  root->mChildren = calloc (n_meshes, sizeof (struct aiNode *));
  if (root->mChildren == NULL)
    {
      free (count);
      free (slot);
      goto oom;
    }

  bool failed = false;
  for (size_t s = 0; s < n_s && !failed; s++)
    {
      if (count[s] == 0)
        continue;
      const char *name = mesh->n_surfaces ? mesh->surface_names[s] : "surface 1";
      const char *mat_name = mesh->n_surfaces && mesh->surface_materials && mesh->surface_materials[s]
                               ? mesh->surface_materials[s] : name;
      struct aiMesh *am = calloc (1, sizeof *am);
      struct aiMaterial *mat = material_new (mat_name);
      unsigned idx = scene->mNumMeshes;
      if (am == NULL || mat == NULL)
        {
          free (am);
          material_free (mat);
          failed = true;
          break;
        }
      scene->mMeshes[idx] = am;
      scene->mMaterials[idx] = mat;
      struct aiNode *child = calloc (1, sizeof *child);
      unsigned *child_meshes = calloc (1, sizeof (unsigned));
      if (child == NULL || child_meshes == NULL)
        {
          free (child);
          free (child_meshes);
          scene_free_mesh (am);
          material_free (mat);
          failed = true;
          break;
        }
      scene->mNumMeshes++;
      scene->mNumMaterials++;
      set_ai_string (&child->mName, name);
      child->mTransformation = root->mTransformation;
      child->mParent = root;
      child->mMeshes = child_meshes;
      child->mMeshes[0] = idx;
      child->mNumMeshes = 1;
      root->mChildren[root->mNumChildren++] = child;
      set_ai_string (&am->mName, name);
      am->mMaterialIndex = idx;
      am->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
      /* Vertices of this surface only, shared between its triangles. */
      for (size_t v = 0; v < mesh->n_vertices; v++)
        slot[v] = UINT32_MAX;
      unsigned nv = 0;
      for (size_t t = 0; t < mesh->n_triangles; t++)
        if (mesh->tri_surface[t] == s || (mesh->tri_surface[t] >= n_s && s == 0))
          for (int k = 0; k < 3; k++)
            if (slot[mesh->tri[3 * t + k]] == UINT32_MAX)
              slot[mesh->tri[3 * t + k]] = nv++;
      am->mVertices = calloc (nv, sizeof (struct aiVector3D));
      am->mNormals = calloc (nv, sizeof (struct aiVector3D));
      am->mFaces = calloc (count[s], sizeof (struct aiFace));
      if (am->mVertices == NULL || am->mNormals == NULL || am->mFaces == NULL)
        {
          failed = true;
          break;
        }
      am->mNumVertices = nv;
      for (size_t v = 0; v < mesh->n_vertices; v++)
        if (slot[v] != UINT32_MAX)
          {
            struct aiVector3D *o = &am->mVertices[slot[v]];
            o->x = (ai_real) mesh->xyz[3 * v];
            o->y = (ai_real) mesh->xyz[3 * v + 1];
            o->z = (ai_real) mesh->xyz[3 * v + 2];
          }
      for (size_t t = 0; t < mesh->n_triangles && !failed; t++)
        {
          if (!(mesh->tri_surface[t] == s || (mesh->tri_surface[t] >= n_s && s == 0)))
            continue;
          struct aiFace *f = &am->mFaces[am->mNumFaces];
          f->mIndices = malloc (3 * sizeof (unsigned));
          if (f->mIndices == NULL)
            {
              failed = true;
              break;
            }
          f->mNumIndices = 3;
          const uint32_t *tv = mesh->tri + 3 * t;
          for (int k = 0; k < 3; k++)
            f->mIndices[k] = slot[tv[k]];
          am->mNumFaces++;
          /* Face normals accumulated per vertex: some exporters (STL) want
           * normals, and a flat room's vertex normal only serves display. */
          const double *a = mesh->xyz + 3 * tv[0], *b = mesh->xyz + 3 * tv[1], *c = mesh->xyz + 3 * tv[2];
          double u[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
          double w[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
          double nrm[3] = { u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0] };
          for (int k = 0; k < 3; k++)
            {
              struct aiVector3D *o = &am->mNormals[slot[tv[k]]];
              o->x += (ai_real) nrm[0];
              o->y += (ai_real) nrm[1];
              o->z += (ai_real) nrm[2];
            }
        }
      for (unsigned v = 0; v < nv; v++)
        {
          struct aiVector3D *o = &am->mNormals[v];
          double l = sqrt ((double) o->x * o->x + (double) o->y * o->y + (double) o->z * o->z);
          if (l > 0)
            {
              o->x = (ai_real) (o->x / l);
              o->y = (ai_real) (o->y / l);
              o->z = (ai_real) (o->z / l);
            }
        }
    }
  free (count);
  free (slot);
  if (failed)
    goto oom;

  if (aiExportScene (scene, format_id, path, 0) != AI_SUCCESS)
    {
      const char *m = aiGetErrorString ();
      rw_fail (err, RW_ERROR_IO, _("%s: cannot write the mesh as '%s' (Assimp: %s)"), path, format_id,
               m && *m ? m : _("no details"));
      goto out;
    }
  ok = true;
  goto out;

oom:
  rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory while exporting the mesh"), path);
out:
  scene_free (scene);
  return ok;
}
