/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The devices whose server this process could not start lately. Opening
 * one of them again within a minute joins its server if one runs by then
 * but starts none: a program that opens every node again and again (to
 * list cameras, as browsers do while a call starts) waits for a failing
 * start once, not at every open, and uses the device directly meanwhile.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "client.h"

#define BACKOFF_MS 60000
#define BACKOFF_SLOTS 16

static struct {
	char key[80];
	uint64_t at; /* share_mono_ms of the failure; 0: slot free */
} failed[BACKOFF_SLOTS];
static pthread_mutex_t backoff_lock = PTHREAD_MUTEX_INITIALIZER;

/* The slot of key, or -1. Under backoff_lock. */
static int slot_of(const char *key)
{
	for (int i = 0; i < BACKOFF_SLOTS; i++)
		if (failed[i].at && !strcmp(failed[i].key, key))
			return i;
	return -1;
}

int share_start_failed_lately(const char *key)
{
	uint64_t now = share_mono_ms();
	int i, lately;

	pthread_mutex_lock(&backoff_lock);
	i = slot_of(key);
	lately = i >= 0 && now - failed[i].at < BACKOFF_MS;
	if (i >= 0 && !lately)
		failed[i].at = 0;
	pthread_mutex_unlock(&backoff_lock);
	return lately;
}

void share_note_failed_start(const char *key)
{
	uint64_t now = share_mono_ms();
	int i;

	pthread_mutex_lock(&backoff_lock);
	i = slot_of(key);
	if (i < 0) {
		/* A free slot (at 0), else the oldest failure's. */
		i = 0;
		for (int j = 1; j < BACKOFF_SLOTS; j++)
			if (failed[j].at < failed[i].at)
				i = j;
	}
	snprintf(failed[i].key, sizeof(failed[i].key), "%s", key);
	failed[i].at = now ? now : 1;
	pthread_mutex_unlock(&backoff_lock);
}
