import { AnchorButton, type AnchorButtonProps } from '@blueprintjs/core';
import { useHref, useLinkClickHandler } from 'react-router-dom';

/** A Blueprint button that is a router link (a real href, so it also opens in a new window). */
export function LinkButton({ to, ...props }: AnchorButtonProps & { to: string }) {
  const href = useHref(to);
  const onClick = useLinkClickHandler<HTMLElement>(to);
  return <AnchorButton {...props} href={href} onClick={onClick} />;
}
