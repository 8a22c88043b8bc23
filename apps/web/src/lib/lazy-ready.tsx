import { lazy, useState, type ComponentType } from 'react';

/**
 * A component whose module is fetched apart, as with React's `lazy`, and asked for as soon as the
 * module naming it is evaluated, not on its first render; a component rendered once that download
 * has arrived draws at once. React's `lazy` suspends on its first render even when the module has
 * long arrived (its promise settles a microtask later), and React reveals what a Suspense boundary
 * held back no sooner than 300 ms after its fallback appeared: Home's lists, whose table had come
 * with the page, waited that long behind their loader (issue 13: Home's Largest Contentful Paint).
 * One rendered before then suspends as `lazy` does, and keeps that form while it is mounted (a
 * change of component would draw it afresh). A failed download fails only where it is rendered.
 */
export function lazyReady<P extends object>(
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  let ready: ComponentType<P> | undefined;
  const loading = load().then((component) => {
    ready = component;
    return { default: component };
  });
  // Rendered or not, a failed download is no unhandled rejection; the lazy form still throws it.
  loading.catch(() => undefined);
  const Lazy = lazy(() => loading);
  return function LazyReady(props: P) {
    const [Component] = useState<ComponentType<P>>(() => ready ?? Lazy);
    return <Component {...props} />;
  };
}
