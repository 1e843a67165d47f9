package dev.tributary.tiering.service;

/** A table attempt a job is working on, as listed in heartbeats. */
public record InFlightTable(long tableId, long epoch) {}
