/**
 * The texts users see (docs/product.md#errors, and the texts of #screens, #states and #validation),
 * spelled once. One export a text, so a client bundle keeps only the texts its code shows: most are
 * the server actions' and never reach a browser. Import them as `messages` from ./messages.ts.
 */

// Login
export const userNotFound = "User not found";
export const invalidCredentials = "Invalid credentials";
export const unexpected = "An unexpected error occurred";
export const noToken = "No token received";
export const googleFailed = "Failed to sign in with Google";
export const appleComingSoon = "Apple Sign-In coming soon!";

// Registration and reset
export const registrationFailed = "Registration failed";
export const resetEmailFailed = "Failed to send reset email";
export const passwordsDoNotMatch = "Passwords do not match";
export const accountCreated = "Account created successfully! Please log in.";
export const resetSent = "Password reset instructions sent to your email";

// An addition (docs/product.md#additions-screens): Google sign-in when unavailable, and finishing a reset (/reset-password)
export const googleNotConfigured = "Google sign-in is not configured on this server.";
export const googleNeedsJavaScript =
  "Google sign-in needs JavaScript. Turn it on, or sign in with your username and password.";
export const passwordResetDone = "Your password has been changed. Please sign in with the new one.";
export const resetLinkIncomplete =
  "This reset link is incomplete. Open the whole link from the email, or ask for a new one.";

// Session and permissions
export const sessionExpired = "Session expired. Please log in again.";
export const loggedOut = "You have been logged out successfully.";
export const httpError = (status: number, statusText: string) => `Error: ${status} - ${statusText}`;
export const network = "Network error. Please check your connection.";
export const permissionsUnexpected = "An unexpected error occurred while fetching permissions.";
export const permissionsFailed = (status: number, statusText: string) =>
  `Failed to fetch permissions: ${status} - ${statusText}`;
export const permissionsNetwork = "Network error while fetching permissions.";
export const noDeletePermission = "You do not have permission to delete this stock.";

// Data areas (docs/product.md#states)
export const fetchUserStocksFailed = "Failed to fetch user stocks";
export const fetchUipStocksFailed = "Failed to fetch UIP stocks";
export const fetchRecommendationsFailed = "Failed to fetch trade recommendations";
export const fetchTopLineFailed = "Failed to fetch trade recommendations top line data";
// Covered calls (docs/decisions/0079)
export const fetchCoveredCallsFailed = "Failed to fetch covered calls for your holdings";
export const callFiltersSaved = "Saved as your default call filters";

// Lists and forms
export const deleteFailed = "Failed to delete stock.";
export const errorWithMessage = (message: string) => `Error: ${message}`;
export const unknownError = "An unknown error occurred";
export const recommendationToggleFailed = (detail: string) => `Failed to update recommendation setting: ${detail}`;
export const notFound = "Not found";
export const notAuthorizedUipEdit = "Not authorized to edit UIP stock";

// An addition (docs/product.md#additions-screens): the UIP list's other refusals (the provider's texts), a ticker not on it, and the bell
export const notAuthorizedUipCreate = "Not authorized to add UIP stock";
export const notAuthorizedUipReorder = "Not authorized to reorder UIP stocks";
export const uipStockNotFound = (ticker: string) => `${ticker} is not in the UIP list.`;
export const uipViewOnly = "You can look at these values, but your account cannot change UIP stocks.";
export const priceAlertOn = (ticker: string) => `Price alerts on for ${ticker}.`;
export const priceAlertOff = (ticker: string) => `Price alerts off for ${ticker}.`;
export const priceAlertFailed = (detail: string) => `Failed to update the price alert: ${detail}`;
export const userStockNotFound = "User Stock not found!";
export const editErrorOccurred = "An error occurred.";
export const editUnknownError = "An unknown error occurred.";

// AI, generation and profile
export const noResponseBody = "No response body received from server.";
export const aiFailed = "Error fetching AI analysis.";

// AI texts' labels (docs/product.md#states-ai: the AI analysis modal, the option detail's button)
export const aiAnalysing = "Analysing ...";
export const aiExplain = "Explain";
export const aiThinking = "Thinking...";
export const notAuthorizedGenerate = "Not authorized to generate recommendations";
export const notAuthorizedAction = "Not authorized to perform this action";
export const supportFailed = "Failed to submit support request. Please try again.";

// Notifications
export const fetchNotificationsFailed = "Failed to fetch notifications";
export const markAllReadFailed = "Failed to mark all notifications as read";
export const clearFailed = "Failed to clear notifications";
export const markReadFailed = "Failed to mark notification as read";
export const countFailedWithResponse = (message?: string) =>
  `Error: ${message || "Failed to fetch notification count"}`;
export const countNoResponse = "No response from server. Please check your network connection.";
export const countSetupFailed = (message: string) => `Error: ${message}`;
export const countUnexpected = "An unexpected error occurred. Please try again later.";

// Toggles and push (docs/product.md#validation-push, #errors-toggles)
export const togglePushFailed = "An unexpected error occurred while toggling push notifications";
export const toggleAutoRefreshFailed = "An unexpected error occurred while toggling auto refresh";
export const toggleTradeRecommendationsFailed = "An unexpected error occurred while toggling trade recommendations";
export const enableBrowserNotifications = "Please enable notifications in your browser settings";
export const userIdNotFound = "User ID not found";
export const fcmTokenFailed = "Failed to generate FCM token";
export const noSystemSettingsPermission = "You don't have permission to modify system settings";
export const notificationsNotEnabled = "Notifications are not enabled.";

// Profile photo and push console warnings (docs/product.md#validation-push, #errors-console)
export const profileImageOnly = "Please choose an image file for your profile photo.";
export const pushNeedsHomeScreen = "Push notifications work only when the app is installed on the home screen.";
export const pushNeedsIos164 = "Push notifications require iOS 16.4 or later.";
export const newVersion = "New version available! Refresh now?";

// An addition (docs/product.md#additions-offline): the installable app offline (issue 11) — the update prompt's buttons, the

// offline indicator, the outbox of changes made offline, and the page for a screen not saved here
export const refreshNow = "Refresh";
export const refreshLater = "Later";
export const offline = "You are offline.";
export const cannotReachServer = "The server cannot be reached.";
export const slowConnection = "The connection is slow.";
export const savedDataAge = (age: string) => `Showing data saved ${age}.`;
export const savedRecommendationsAge = (age: string) =>
  `These recommendations were saved ${age} and may be out of date; fresh ones need a connection.`;
export const changesWaiting = (count: number) =>
  `${count} ${count === 1 ? "change is" : "changes are"} waiting to be sent.`;
export const retryNow = "Retry now";
export const changeQueued = (label: string) => `${label}: saved on this device, and sent when you are back online.`;
export const changeAlreadyQueued = (label: string) => `${label}: already waiting to be sent.`;
export const notSentOffline =
  "You are offline: nothing was sent. What you entered is kept; try again when you are back online.";
export const stillOffline = "Still offline: the waiting changes are sent when the connection returns.";
export const serverTrouble = "The server could not take the waiting changes yet; they are tried again shortly.";
export const outboxSent = (label: string) => `${label}: sent.`;
export const outboxGaveUp = (label: string, reason: string) => `${label} could not be sent: ${reason}`;
export const outboxSignedOut = (labels: string[]) =>
  `Your session ended before ${labels.length === 1 ? "this change was" : "these changes were"} sent: ${labels.join("; ")}.`;
export const signOutOffline = "You are offline. Signing out needs a connection.";
export const offlineTitle = "You are offline";
export const offlineNotSaved = "This screen has not been saved on this device yet. It opens once you are back online.";
export const offlineTryAgain = "Try again";
export const offlineToWatchlist = "Open the watchlist";

// Success toasts
export const uipReordered = "Stocks reordered!";
export const watchlistReordered = "Stocks reordered.";
export const deletedFromUip = (ticker: string) => `${ticker} deleted from UIP stocks.`;
export const deletedFromWatchlist = (ticker: string) => `${ticker} deleted from Watchlist.`;
export const addedToWatchlist = (ticker: string) => `${ticker} added to your watchlist!`;
export const added = (ticker: string) => `${ticker} added!`;
export const updated = (ticker: string) => `${ticker} updated successfully!`;
export const recommendationSettingUpdated = "Recommendation setting updated.";
export const allMarkedRead = "All notifications marked as read";
export const allCleared = "All notifications cleared";
export const supportSubmitted = "Support request submitted successfully!";

// Router
export const unexpectedApplicationError = "Unexpected Application Error!";

// Posts that are not a form (issue 40, findings 3 and 6; app/server/form-body.server.ts)
export const formNotAForm = "This page takes a form. Go back, reload the page and send the form again.";
/** A page whose data the service cannot give at the moment (503; app/server/unavailable.server.ts). */
export const serviceUnavailable = "PutSeller cannot load this page at the moment. Try again in a few seconds.";
export const formUnreadable = "The form could not be read. Go back, reload the page and send it again.";
