// zod locales: never used by the model Workers (the SDK sets its own English messages).
export {};
