"""The composition root: settings -> database -> schema -> engine + queue, for every entry
point (CLI, UI, API, workers). Core never imports tasks; this is where they meet.
"""
