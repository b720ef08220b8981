/**
 * Web mode's install page (/install?catalog=…) as the switchboard://install?… link it stands for;
 * the token, which only opened the page, is not part of it. Main parses the link.
 */
export function installLinkFromLocation(location: Pick<Location, 'pathname' | 'search'>): string | undefined {
  if (location.pathname !== '/install') return undefined;
  const params = new URLSearchParams(location.search);
  params.delete('token');
  return `switchboard://install?${params}`;
}
