/** A tool as a model is offered it: the name it calls, what it is for, and the JSON Schema of its arguments. */
export interface ModelTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}
