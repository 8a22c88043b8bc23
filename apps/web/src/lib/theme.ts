import type { ThemeConfig } from 'antd';

/** The brand blue (logo, primary buttons, links); styles.css repeats it as `--brand`. */
export const brandColor = '#1d4ed8';

/**
 * The brand blue under the pointer and while pressed. antd derives a lighter hover (#4373e6, 4.3:1
 * under a primary button's white text; #6d99f2 for a hovered link, 2.8:1): a button still under
 * the pointer after its click failed axe's contrast check. Hover and press darken instead.
 */
const brandHover = '#1e40af'; // white on it 8.7:1; styles.css repeats it as `--brand-hover`
const brandActive = '#1e3a8a'; // 10.4:1

/** Text on white or on the page's #f5f7fb at 4.5:1 at least (WCAG 2.2 AA 1.4.3, issue 13). */
const secondaryText = 'rgba(0, 0, 0, 0.6)'; // 5.6:1 where antd's 45 % black (#87888a) had 3.3:1
const placeholderText = 'rgba(0, 0, 0, 0.55)'; // 4.7:1 where antd's 25 % black had 1.8:1

/**
 * antd's theme, with the colours that antd's defaults draw below WCAG AA contrast replaced (issue
 * 13: Lighthouse and axe). Links follow the brand colour (antd derives them from its own #1677ff,
 * 3.8:1 on the page); the error and info colours are a shade darker so that red text, danger
 * buttons and 'processing' tags read at 5:1 or more. Tags draw their text with the 7th shade of a
 * colour on its 1st, or with a status colour on its background: those below 4.5:1 are darkened for
 * the tag alone (green, gold and orange; success and warning), where a global change would grey
 * the palettes antd derives from them. Under the pointer and while pressed, the brand and error
 * colours darken where antd would lighten them, so a hovered button or link keeps its contrast.
 * The table's empty text, the select's placeholder and a description's label are real text too.
 */
export const theme: ThemeConfig = {
  token: {
    colorPrimary: brandColor,
    colorPrimaryHover: brandHover,
    colorPrimaryActive: brandActive,
    colorPrimaryTextHover: brandHover,
    colorPrimaryTextActive: brandActive,
    colorInfo: brandColor,
    colorInfoHover: brandHover,
    colorInfoTextHover: brandHover,
    colorLink: brandColor,
    colorLinkHover: brandHover,
    colorLinkActive: brandActive,
    colorError: '#cf1322',
    colorErrorHover: '#a8071a',
    colorErrorActive: '#820014',
    colorErrorTextHover: '#a8071a',
    colorErrorTextActive: '#820014',
    colorTextDescription: secondaryText,
    colorTextPlaceholder: placeholderText,
    borderRadius: 8,
    fontSize: 14,
  },
  components: {
    Tag: {
      colorSuccess: '#237804',
      colorWarning: '#874d00',
      green7: '#237804',
      gold7: '#874d00',
      orange7: '#ad4e00',
    },
    Typography: { colorSuccess: '#237804', colorWarning: '#874d00' },
    Table: { colorTextDisabled: secondaryText },
    // antd draws a description's label in its 45 % black (3.3:1 on white).
    Descriptions: { labelColor: secondaryText },
  },
};
