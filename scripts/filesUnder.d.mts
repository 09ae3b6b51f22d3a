export function filesUnder(dir: string): string[];
export const isSourceFile: (path: string) => boolean;
