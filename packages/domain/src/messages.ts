/** User-facing texts of the specification that both server and web need, verbatim (typos included). */
export const messages = {
  invalidCredentials: 'Invalid credentials',
  lockedAccount:
    "Your account has been locked due to pending retirement. You can not submit new requests or edit exisiting requests. If this isn't correct, contact your finance officer.",
  tagline: 'The simple way to manage requests within your organisation.',
  amountExceedsBalance: 'The entered amount exceeds the available balance in the budget code',
  currencyDiffers: 'The selected currency differs from the budget code currency',
  priorRequestsBlockChange:
    "Due to the existence of prior requests, curreny and code numbers can't be modified.",
  requestNotFound: "Error! Couldn't find the request.",
  fileExtensionNotSupported: 'File extension not supported',
  zipPreview: "You can't preview a ZIP file. Please download it to proceed!",
  fileNotFound: 'File not found!',
  fileFailedToLoad: 'Failed to load content',
} as const;
