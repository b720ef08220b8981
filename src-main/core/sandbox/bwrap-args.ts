import { existsSync, realpathSync, statSync } from 'node:fs';
import { isInside, type SandboxPlan } from './sandbox-plan';

/**
 * bubblewrap's argument list for a plan (SECURITY X1). Order matters: bwrap applies mounts in turn, so the
 * hidden places come first, the grants are bound back over them, denials last, then the hidden
 * folders are made read-only (a write there fails with EROFS rather than landing in a throwaway tmpfs).
 * `--unshare-pid` + `--die-with-parent` keep the whole tree inside one process the transport can stop.
 * The server always gets a network namespace of its own (`--unshare-net`: no route out, no loopback of the
 * machine, no abstract sockets); with domains granted, `networkFolder` (the filtering proxy's socket and
 * the bridge, net/sandbox-network.ts) is bound in read-only, and is then its only way out.
 */
export function bwrapArgs(plan: SandboxPlan, command: string, args: string[], cwd: string | undefined, networkFolder?: string): string[] {
  const out = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  out.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-net', '--die-with-parent', '--new-session');
  // Parents first, so a hidden folder inside another (a home inside the data home) is made after it.
  const hidden = [...plan.hidden].sort((a, b) => a.length - b.length).filter((folder) => existsSync(folder));
  for (const folder of hidden) out.push('--tmpfs', folder);
  // Everything else is readable already (the ro root); only what lies under a hidden folder or the private
  // /tmp needs binding back, and writes everywhere. bwrap cannot mount through a symlink: bind the real path.
  const covered = [...plan.hidden, '/tmp'];
  for (const grant of plan.grants) {
    if (!existsSync(grant.path)) continue;
    const real = realpathSync(grant.path);
    if (grant.access === 'read' && !covered.some((folder) => isInside(real, folder))) continue;
    out.push(grant.access === 'write' ? '--bind' : '--ro-bind', real, real);
  }
  // Before any hidden folder is made read-only, so a TMPDIR inside the home can still take the mount point.
  if (networkFolder) out.push('--ro-bind', networkFolder, networkFolder);
  for (const path of plan.denyWrite) if (existsSync(path)) out.push('--ro-bind', path, path);
  for (const path of plan.denyRead) {
    if (!existsSync(path)) continue;
    if (statSync(path).isDirectory()) out.push('--tmpfs', path, '--remount-ro', path);
    else out.push('--ro-bind', '/dev/null', path);
  }
  // A grant the person wrote may contain the data home (allowRead ["~"]): it is hidden again on top.
  for (const folder of plan.sealed) {
    if (!existsSync(folder)) continue;
    out.push('--tmpfs', folder);
    // The one grant the plan lets into the data home, a bundle's own folder, is bound back read-only before the seal is.
    for (const grant of plan.grants) if (grant.from === 'package' && isInside(grant.path, folder) && existsSync(grant.path)) out.push('--ro-bind', realpathSync(grant.path), grant.path);
    out.push('--remount-ro', folder);
  }
  const resealed = (folder: string) => plan.sealed.some((sealed) => sealed !== folder && isInside(folder, sealed));
  for (const folder of hidden) if (!resealed(folder)) out.push('--remount-ro', folder);
  if (cwd) out.push('--chdir', cwd);
  out.push('--', command, ...args);
  return out;
}
