export * from "./store";
export * from "./writer";
export { opsToJson, opsFromJson } from "../engine/json";
export * from "./snapshots";
