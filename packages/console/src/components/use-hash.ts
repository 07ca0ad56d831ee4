import { useEffect, useState } from 'preact/hooks';

/**
 * A hash that is a route (`#/...`, or none), followed across hash navigations. Another hash (the
 * skip link's `#main`) is the browser's own in-page jump and leaves the route as it was.
 */
export function isRouteHash(hash: string): boolean {
  return hash === '' || hash.startsWith('#/');
}

/** `location.hash` when it is a route, followed across hash navigations. */
export function useHash(): string {
  const [hash, setHash] = useState(isRouteHash(location.hash) ? location.hash : '');
  useEffect(() => {
    const follow = () => {
      if (isRouteHash(location.hash)) setHash(location.hash);
    };
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  return hash;
}
