import { stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import type { ConfigProblem } from '../../../src-preload/contract';
import { AppFailure } from '../app-error';
import { readTextIfExists, writeFileAtomic } from './atomic-file';

/** The folders the user opened as projects, kept in the data home as { "projects": [absolute paths] }. */
export const projectsFile = (home: string): string => join(home, 'projects.json');

export interface ProjectListRead {
  projects: string[];
  problems: ConfigProblem[];
}

export async function readProjects(home: string): Promise<ProjectListRead> {
  const path = projectsFile(home);
  const text = await readTextIfExists(path);
  if (text === undefined) return { projects: [], problems: [] };
  const parsed = parseProjects(text);
  if (parsed.ok) return { projects: parsed.projects, problems: [] };
  return { projects: [], problems: [{ file: path, message: `${path}: ${parsed.message}; no project folders were read` }] };
}

/** Add a folder; adding one already listed changes nothing. Returns the new list. */
export async function addProject(home: string, dir: string): Promise<string[]> {
  if (!isAbsolute(dir)) throw new AppFailure('invalid_input', `a project folder must be an absolute path: ${dir}`);
  const folder = resolve(dir);
  const info = await stat(folder).catch(() => undefined);
  if (!info) throw new AppFailure('not_found', `project folder does not exist: ${folder}`);
  if (!info.isDirectory()) throw new AppFailure('invalid_input', `not a folder: ${folder}`);
  const projects = await readForUpdate(home);
  if (projects.includes(folder)) return projects;
  const next = [...projects, folder];
  await writeFileAtomic(projectsFile(home), serialize(next));
  return next;
}

/** Remove a folder from the list (its files are untouched). Returns the new list. */
export async function removeProject(home: string, dir: string): Promise<string[]> {
  const folder = isAbsolute(dir) ? resolve(dir) : dir;
  const projects = await readForUpdate(home);
  if (!projects.includes(folder)) throw new AppFailure('not_found', `no project folder ${folder} in the list`);
  const next = projects.filter((p) => p !== folder);
  await writeFileAtomic(projectsFile(home), serialize(next));
  return next;
}

/** A broken list is never overwritten: the user may have edited it by hand, and fixing it is theirs to do. */
async function readForUpdate(home: string): Promise<string[]> {
  const path = projectsFile(home);
  const text = await readTextIfExists(path);
  if (text === undefined) return [];
  const parsed = parseProjects(text);
  if (!parsed.ok) throw new AppFailure('conflict', `${path}: ${parsed.message}; fix or delete the file first`);
  return parsed.projects;
}

function parseProjects(text: string): { ok: true; projects: string[] } | { ok: false; message: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, message: 'is not valid JSON' };
  }
  const projects = (data as { projects?: unknown } | null)?.projects;
  if (!Array.isArray(projects) || !projects.every((p): p is string => typeof p === 'string' && isAbsolute(p))) {
    return { ok: false, message: '"projects" must be an array of absolute folder paths' };
  }
  return { ok: true, projects: [...new Set(projects.map((p) => resolve(p)))] };
}

const serialize = (projects: string[]): string => `${JSON.stringify({ projects }, null, 2)}\n`;
