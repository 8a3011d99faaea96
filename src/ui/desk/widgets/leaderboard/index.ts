export { leaderboardWidget } from "./LeaderboardWidget";
