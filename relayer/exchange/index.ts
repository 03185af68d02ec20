export * from "./exchange";
