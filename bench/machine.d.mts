export interface MachineInfo {
  cpu: string;
  cores: number;
  node: string;
  platform: string;
  commit: string;
  dirty: boolean;
  load: number[];
}
export function loadNow(): number[];
export function machineInfo(): MachineInfo;
