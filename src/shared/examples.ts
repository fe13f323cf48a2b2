/**
 * The story every example in the reference tells: Café Soleil, its owner Camille and her team, a
 * customer asking for oat milk. Each example is declared once, on the schema it illustrates
 * (`.meta({ examples })` on a response component or a request body); the document shows it on every
 * operation using that schema, and the contract test validates each against its schema.
 */
export const EXAMPLE = {
  businessId: '0194b2a0-5c3e-7a41-9f2d-3e8b6c1d0a01',
  businessName: 'Café Soleil',
  ownerId: '0194b2a0-5c3e-7a41-9f2d-3e8b6c1d0a02',
  ownerName: 'Camille Durand',
  ownerEmail: 'camille@cafe-soleil.example',
  memberId: '0194b2a4-0e71-7d12-8b33-41c9f0a2e7d5',
  memberName: 'Théo Martin',
  memberEmail: 'theo@cafe-soleil.example',
  suggestionId: '0194b3f1-8d20-7b6a-a4c5-2f9e1d7c3b10',
  /** A duplicate of suggestionId, merged into it. */
  otherSuggestionId: '0194b3f1-9a41-7c2e-b8d3-4e6f0a1b2c3d',
  issueId: '0194b3f2-1a44-7c8e-b2d1-6e0f4a9c5d20',
  commentId: '0194b3f4-7b02-7f31-9c6e-0d2a8b5e1f34',
  voteId: '0194b3f6-2c18-7d40-8a5b-6e1f0c9d3a42',
  locationId: '0194b2b1-33c7-7e05-a1f8-9b4d2c6e0a47',
  tagId: '0194b2b4-5e2a-7c19-9d3f-7a1c2e8b4f63',
  qrCodeId: '0194b2c8-6f19-7a2b-8e4c-5d1f3a7b9c58',
  apiKeyId: '0194b2d3-92ae-7c64-b0f7-2e8a6d4c1b69',
  inviteId: '0194b3e0-4c5d-7b8e-9f01-a2b3c4d5e6f7',
  sessionExpiresAt: '2026-01-31T21:30:00.000Z',
  inviteExpiresAt: '2026-02-07T09:30:00.000Z',
  createdAt: '2026-01-31T09:30:00.000Z',
  updatedAt: '2026-02-02T14:05:12.345Z',
  requestId: '5f0c2a9e-7d41-4b8a-9c3e-1f6d8a2b4c70',
} as const;
