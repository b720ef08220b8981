import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addProject, projectsFile, readProjects, removeProject } from '../../../src-main/core/config/project-list';

let root: string;
let home: string;
let proj: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sb-projects-'));
  home = join(root, 'home');
  proj = join(root, 'proj');
  await mkdir(proj, { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('project list', () => {
  it('adds, persists (mode 0600) and removes folders; adding twice changes nothing', async () => {
    expect(await addProject(home, `${proj}/`)).toEqual([proj]);
    expect(await addProject(home, proj)).toEqual([proj]);
    expect((await stat(projectsFile(home))).mode & 0o777).toBe(0o600);
    expect(await readProjects(home)).toEqual({ projects: [proj], problems: [] });
    expect(await removeProject(home, proj)).toEqual([]);
    expect(await readProjects(home)).toEqual({ projects: [], problems: [] });
  });

  it('refuses a relative path, a missing folder and a file, leaving the list unchanged', async () => {
    await addProject(home, proj);
    const before = await readFile(projectsFile(home));
    const file = join(root, 'file.txt');
    await writeFile(file, 'x');
    await expect(addProject(home, 'proj')).rejects.toMatchObject({ message: 'a project folder must be an absolute path: proj' });
    await expect(addProject(home, join(root, 'nope'))).rejects.toMatchObject({ message: `project folder does not exist: ${join(root, 'nope')}` });
    await expect(addProject(home, file)).rejects.toMatchObject({ message: `not a folder: ${file}` });
    await expect(removeProject(home, join(root, 'other'))).rejects.toMatchObject({ message: `no project folder ${join(root, 'other')} in the list` });
    expect(await readFile(projectsFile(home))).toEqual(before);
  });

  it('reports a broken projects.json and never overwrites it', async () => {
    await mkdir(home, { recursive: true });
    const broken = '{ "projects": "not a list" }';
    await writeFile(projectsFile(home), broken);
    expect(await readProjects(home)).toEqual({
      projects: [],
      problems: [{ file: projectsFile(home), message: `${projectsFile(home)}: "projects" must be an array of absolute folder paths; no project folders were read` }],
    });
    await expect(addProject(home, proj)).rejects.toMatchObject({ message: `${projectsFile(home)}: "projects" must be an array of absolute folder paths; fix or delete the file first` });
    await writeFile(projectsFile(home), '{ nope');
    await expect(removeProject(home, proj)).rejects.toMatchObject({ message: `${projectsFile(home)}: is not valid JSON; fix or delete the file first` });
    expect(await readFile(projectsFile(home), 'utf8')).toBe('{ nope');
  });
});
