namespace Notifications.UnitTests.Observability;

/// <summary>Activity listeners are process-wide: the tests that add or count on their absence run one at a time.</summary>
[CollectionDefinition("tracing")]
public sealed class TracingCollection;
