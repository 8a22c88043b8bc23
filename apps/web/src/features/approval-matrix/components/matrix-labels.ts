/** Column and field labels of the approval matrix (spec §2). */
export const matrixLabels = {
  requestedAmount: 'REQUESTED AMOUNT',
  approvalGroup: 'APPROVAL GROUP',
  officers: ['FIRST OFFICER', 'SECOND OFFICER', 'THIRD OFFICER'],
  startAmount: 'Start Amount',
  endAmount: 'End Amount',
  description: 'Description',
  cascadingNotification: 'Cascading Notification',
  reviewers: ['First Reviewer', 'Second Reviewer', 'Third Reviewer'],
} as const;
