// Public face of core/services/navigation: the navigation service API, its handlers and the fake.
export type { GeoObstacle, Navigation, NavigationLocation, NavigationMapType, NavigationMode, NavigationPath, ObstacleShape, Waypoint } from "./navigation.js";
export { createNavigationService } from "./navigation-service.js";
export { builtinNavigationModel, fakeNavigationModel, MAX_WAYPOINTS } from "./fake-navigation.js";
