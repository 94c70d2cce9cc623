/**
 * Whether someone may answer a permission request (docs/design.md §14): only the surface's approvers, an
 * empty list meaning nobody. Slack ids compare exactly; GitHub logins ignore case, as GitHub does.
 */
export function mayDecide(
  surface: 'slack' | 'github',
  approvers: readonly string[],
  who: string,
): boolean {
  if (who === '') return false;
  return surface === 'github'
    ? approvers.some((login) => login.toLowerCase() === who.toLowerCase())
    : approvers.includes(who);
}
