import { RotateLeftOutlined, RotateRightOutlined } from '@ant-design/icons';
import { Button, Flex, Tooltip } from 'antd';
import { useLayoutEffect, useRef, useState } from 'react';
import { FailedToLoad, PreviewLoading, ZoomControls } from './preview-parts.tsx';
import { useElementWidth } from './use-element-width.ts';

const zoomSteps = [0.5, 0.75, 1, 1.5, 2, 3, 4];

type ImagePreviewProps = { src: string; fileName: string };

/**
 * An image fitted to the dialog, with zoom and a quarter-turn rotation: phone photos of receipts
 * are often sideways. The browser turns a photo by its EXIF orientation first (CSS
 * `image-orientation: from-image`, Chromium's default), and the buttons turn it further.
 */
export function ImagePreview({ src, fileName }: ImagePreviewProps) {
  const [stage, width] = useElementWidth<HTMLDivElement>();
  const [natural, setNatural] = useState<{ width: number; height: number } | null>(null);
  const [hasFailed, setHasFailed] = useState(false);
  const [zoomIndex, setZoomIndex] = useState(zoomSteps.indexOf(1));
  const [turns, setTurns] = useState(0);
  const image = useRef<HTMLImageElement>(null);

  // A cached image may have loaded before React attached onLoad.
  useLayoutEffect(() => {
    const element = image.current;
    if (element?.complete && element.naturalWidth > 0) {
      setNatural({ width: element.naturalWidth, height: element.naturalHeight });
    }
  }, []);

  if (hasFailed) return <FailedToLoad />;

  const zoom = zoomSteps[zoomIndex] ?? 1;
  const isSideways = turns % 2 !== 0;
  // The box the turned image takes, fitted into the stage's width and 70% of the screen's height.
  let box = { width: 0, height: 0, scale: 0 };
  if (natural && width > 0) {
    const turned = isSideways
      ? { width: natural.height, height: natural.width }
      : { width: natural.width, height: natural.height };
    const fit = Math.min(width / turned.width, (window.innerHeight * 0.7) / turned.height, 1);
    const scale = fit * zoom;
    box = { width: turned.width * scale, height: turned.height * scale, scale };
  }

  return (
    <div className="preview-frame">
      <Flex className="preview-toolbar" gap={4} align="center" wrap>
        <ZoomControls
          steps={zoomSteps}
          index={zoomIndex}
          onChange={setZoomIndex}
          testId="image-zoom"
        />
        <Tooltip title="Rotate left">
          <Button
            icon={<RotateLeftOutlined />}
            aria-label="Rotate left"
            onClick={() => setTurns((value) => (value + 3) % 4)}
          />
        </Tooltip>
        <Tooltip title="Rotate right">
          <Button
            icon={<RotateRightOutlined />}
            aria-label="Rotate right"
            onClick={() => setTurns((value) => (value + 1) % 4)}
          />
        </Tooltip>
      </Flex>
      <div ref={stage} className="preview-stage preview-image-stage" data-testid="image-stage">
        {natural ? null : <PreviewLoading text="Loading…" />}
        <div
          className="preview-image-box"
          style={{ width: box.width, height: box.height, display: natural ? undefined : 'none' }}
        >
          <img
            ref={image}
            className="preview-image"
            src={src}
            alt={fileName}
            draggable={false}
            onLoad={(event) =>
              setNatural({
                width: event.currentTarget.naturalWidth,
                height: event.currentTarget.naturalHeight,
              })
            }
            onError={() => setHasFailed(true)}
            style={
              natural
                ? {
                    width: natural.width * box.scale,
                    height: natural.height * box.scale,
                    transform: `translate(-50%, -50%) rotate(${turns * 90}deg)`,
                  }
                : undefined
            }
          />
        </div>
      </div>
    </div>
  );
}
