import type { RefObject } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/** The element's width in CSS pixels, followed as the window or the layout changes. */
export function useWidth(ref: RefObject<HTMLElement | null>, fallback: number): number {
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const element = ref.current;
    if (element === null) return;
    const measure = () => setWidth(Math.max(200, Math.floor(element.getBoundingClientRect().width)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
